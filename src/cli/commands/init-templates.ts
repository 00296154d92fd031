/** The files `svc config init` writes. */

/** `svc.ts` with the example function and a commented branch closure. */
export const POLICY_WITH_EXAMPLE = `import { defineConfig } from "svc-config/v1";

export default defineConfig({
  functions: {
    hello: {
      name: "Hello",
      source: "./functions/hello",
      // Values stay out of plans and logs; "" deletes the variable from the deployed function.
      env: { GREETING: process.env.GREETING ?? "Hello" },
    },
  },
  // Per-branch settings; called with the branch being planned.
  branch: (t) => {
    if (t.isDefault) {
      // Protect the default branch (the first apply needs --update-existing):
      // return { protected: true };
      return {};
    }
    // Let preview branches expire a week after they were created:
    // return { ttl: "7d" };
    return {};
  },
});
`;

/** `svc.ts` for \`--no-example\`: an empty policy. */
export const POLICY_EMPTY = `import { defineConfig } from "svc-config/v1";

export default defineConfig({
  // Per-branch settings; called with the branch being planned.
  branch: (t) => (t.isDefault ? {} : {}),
});
`;

/** The example function: a minimal greeting handler. */
export const HELLO_FUNCTION = `// A function answers HTTP requests with the standard Request and Response types.
export default {
  async fetch(request: Request): Promise<Response> {
    const name = new URL(request.url).searchParams.get("name") ?? "world";
    const greeting = process.env.GREETING ?? "Hello";
    return new Response(\`\${greeting}, \${name}!\\n\`, { headers: { "content-type": "text/plain" } });
  },
};
`;

/** Ambient types for the variables \`svc.ts\` reads; extend it as the policy grows. */
export const ENV_TYPES = `// Environment variables svc.ts reads. Add one line per variable you use.
// \`process\` itself is typed by @types/node: npm install --save-dev @types/node
declare namespace NodeJS {
  interface ProcessEnv {
    /** The greeting of function hello. */
    GREETING?: string;
  }
}
`;
