import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import type { ApiBranch, PlatformApi } from "../../../src/api/platform-api.js";
import { resolveBranch } from "../../../src/cli/target.js";
import { describeError, renderErrorText } from "../../../src/cli/views/error-view.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { resolvePolicy } from "../../../src/kinds/list.js";
import { createClaimableDatabase } from "../../../src/instant/index.js";
import { createTempTree } from "../../helpers/temp-dir.js";

/** What a user reads for an error, without --verbose. */
async function printed(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return renderErrorText(describeError(err), false);
  }
  throw new Error("expected a failure");
}

describe("a branch name where an id is expected", () => {
  const branches: ApiBranch[] = [
    { id: "br-quiet-sun-1", name: "main", default: true, protected: true, created_at: "" },
    { id: "br-dev-2", name: "dev", default: false, protected: false, created_at: "" },
  ];
  const api = { listBranches: async () => branches } as unknown as PlatformApi;

  it("says SVC_BRANCH_ID takes an id, gives the id of the branch with that name and suggests --branch", async () => {
    const text = await printed(resolveBranch(api, "p", { value: "main", source: "env", label: "SVC_BRANCH_ID" }));
    expect(text).toContain('SVC_BRANCH_ID takes a branch id, and no branch has id "main"; "main" is the name of branch br-quiet-sun-1.');
    expect(text).toContain("hint: Set SVC_BRANCH_ID=br-quiet-sun-1, or pass --branch main");
  });

  it("never suggests creating a branch named like an unknown id", async () => {
    const text = await printed(resolveBranch(api, "p", { value: "br-gone-9", source: "env", label: "SVC_BRANCH_ID" }));
    expect(text).not.toContain("svc branch create");
    expect(text).toContain("hint: No branch has this id; use one of: main (br-quiet-sun-1), dev (br-dev-2)");
  });
});

describe("a svc.ts that exists but fails", () => {
  const tree = createTempTree({ ".git/": "" });
  afterAll(() => tree.remove());
  const load = (source: string): Promise<string> => {
    tree.write("svc.ts", source);
    return printed(loadConfigFromFile({ cwd: tree.root }));
  };

  it.each([
    ["a syntax error", 'export default { buckets: { a: { access: "private" } }\n'],
    ["a runtime throw", "\n\nconst token = (process.env.SVC_HINT_TEST_UNSET as unknown as string).trim();\nexport default {};\n"],
    ["an invalid policy", 'export default { buckets: { a: { access: "nope" } } };\n'],
    ["top-level await", "const v = await Promise.resolve(1);\nexport default {};\n"],
  ])("never suggests svc config init for %s", async (_name, source) => {
    const text = await load(source);
    expect(text).toMatch(/^error PLATFORM_CONFIG_(LOAD_FAILED|INVALID)/);
    expect(text).not.toContain("svc config init");
  });

  it("names file:line:column of a runtime throw in the policy's own source, past the type annotations", async () => {
    const line = "const token = (process.env.SVC_HINT_TEST_UNSET as unknown as string).trim();";
    const text = await load(`\n\n${line}\nexport default {};\n`);
    const column = line.indexOf("trim") + 1;
    expect(text).toContain(`(at ${tree.path("svc.ts")}:3:${column})`);
    expect(text).toContain(`hint: Fix ${tree.path("svc.ts")}:3:${column} (the error above)`);
  });

  it("names file:line:column of a throw in the branch closure", async () => {
    const line = "  branch: (b) => ({ compute: { suspendTimeout: (process.env.SVC_HINT_TEST_UNSET as unknown as string).length } }),";
    tree.write("svc.ts", `export default {\n${line}\n};\n`);
    const { config } = await loadConfigFromFile({ cwd: tree.root });
    const text = await printed(Promise.resolve().then(() => resolvePolicy(config, { id: "br-1", name: "main", exists: true })));
    expect(text).toContain(`the branch function failed for branch "main": Cannot read properties of undefined (reading 'length') (at ${tree.path("svc.ts")}:2:${line.indexOf("length") + 1})`);
  });

  it("gives top-level-await advice that does not point into the synchronous branch closure", async () => {
    const text = await load("const v = await Promise.resolve(1);\nexport default {};\n");
    expect(text).not.toMatch(/inside the `branch` closure/);
    expect(text).toContain("read the value synchronously (process.env, readFileSync)");
  });
});

describe("a --config path with no file", () => {
  const tree = createTempTree({ ".git/": "", "svc.ts": "export default {};\n" });
  afterAll(() => tree.remove());

  it("points at the path given instead of suggesting the --config it already got", async () => {
    const text = await printed(loadConfigFromFile({ path: "infra/svc.ts", cwd: tree.root }));
    expect(text).toContain(`policy file ${tree.path("infra/svc.ts")} does not exist`);
    expect(text).toContain(`hint: Check the --config path (infra/svc.ts, read from ${tree.root}), or leave --config out to search for svc.ts upwards from there.`);
    expect(text).not.toContain("pass --config PATH");
  });

  it("still suggests svc config init and --config when a search found nothing", async () => {
    const empty = createTempTree({ ".git/": "" });
    try {
      const text = await printed(loadConfigFromFile({ cwd: empty.root }));
      expect(text).toContain("hint: Run svc config init to create svc.ts, or pass --config PATH.");
    } finally {
      empty.remove();
    }
  });
});

describe("a network failure", () => {
  /** A loopback port nothing listens on. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const address = server.address();
    await new Promise((r) => server.close(r));
    return typeof address === "object" && address !== null ? address.port : 0;
  }

  it("names ECONNREFUSED with host and port, and no request id for a request no server saw", async () => {
    const port = await closedPort();
    const api = createPlatformApi({ apiKey: "k", apiHost: `http://127.0.0.1:${port}/api/v2`, sleep: async () => undefined });
    const text = await printed(api.getProject({ projectId: "p" }));
    expect(text).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(text).not.toMatch(/request id/);
    expect(text).not.toContain("fetch failed");
  });

  it("names the host a DNS lookup failed for", async () => {
    const api = createPlatformApi({ apiKey: "k", apiHost: "http://svc-hint-test.invalid/api/v2", sleep: async () => undefined });
    const text = await printed(api.getProject({ projectId: "p" }));
    expect(text).toMatch(/getaddrinfo (ENOTFOUND|EAI_AGAIN) svc-hint-test\.invalid/);
    expect(text).not.toMatch(/request id/);
  });

  it("names the claim API host svc db tried", async () => {
    const port = await closedPort();
    const text = await printed(createClaimableDatabase({ apiHost: `http://127.0.0.1:${port}`, referrer: "svc-config-test" }));
    expect(text).toContain(`on http://127.0.0.1:${port}`);
    expect(text).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });
});
