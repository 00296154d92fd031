import { afterEach, describe, expect, it } from "vitest";
import { pathToFileURL } from "node:url";
import { resolvePolicy, type PolicyConfig } from "../../../src/v1.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

async function loadTree(files: Record<string, string>): Promise<{ t: TempTree; load: () => Promise<PolicyConfig> }> {
  const t = createTempTree({ ".git/": "", ...files });
  tree = t;
  return { t, load: async () => (await loadConfigFromFile({ cwd: t.root, stopAt: t.root })).config };
}

function causeStack(err: unknown): string {
  let at: unknown = err;
  while (typeof at === "object" && at !== null && "cause" in at && (at as { cause?: unknown }).cause !== undefined) at = (at as { cause: unknown }).cause;
  return String((at as { stack?: unknown }).stack);
}

/** A TypeScript policy whose throw sits after imports, types and multi-line literals that esbuild reprints. */
const THROWING_POLICY = [
  'import { defineConfig } from "svc-config/v1";',
  "",
  "type Region = 'eu' | 'us';",
  "const region: Region = 'eu';",
  "",
  "export default defineConfig({",
  "  auth: true,",
  "  branch: (target) => {",
  '    if (target.name === "broken") {',
  '      throw new Error(`no tuning for ${target.name} in ${region}`);',
  "    }",
  "    return {};",
  "  },",
  "});",
  "",
].join("\n");

describe("policies transformed by esbuild", () => {
  it("reports a throw at the policy's own line and column, after imports and types were stripped", async () => {
    const { t, load } = await loadTree({ "svc.ts": 'import type { PolicyConfig } from "svc-config/v1";\n\nconst auth: boolean = true;\nif (auth) {\n  throw new TypeError("database url is missing");\n}\nexport default { auth } satisfies PolicyConfig;\n' });

    const err = await load().catch((e: unknown) => e);

    expect(causeStack(err)).toContain(`${t.path("svc.ts")}:5:9`);
  });

  it("reports a throw in the branch closure at the policy's own line", async () => {
    const { t, load } = await loadTree({ "svc.ts": THROWING_POLICY });
    const config = await load();

    const err = (() => {
      try {
        resolvePolicy(config, { name: "broken", exists: true, isDefault: false });
      } catch (e) {
        return e;
      }
      return undefined;
    })();

    expect(causeStack(err)).toContain(`${t.path("svc.ts")}:10:13`);
  });

  it("gives the policy and each module it imports its own import.meta.url, dirname and filename", async () => {
    const { t, load } = await loadTree({
      "svc.ts": [
        'import { where } from "./lib/where.ts";',
        'import { meta } from "./lib/meta.ts";',
        'const fn = (at: string) => ({ name: "f", source: "./fn", env: { AT: at } });',
        "export default { functions: { a: fn(where(import.meta.url, import.meta.dirname, import.meta.filename)), b: fn(where(...meta)) } };",
      ].join("\n"),
      "lib/where.ts": "export const where = (url: string, dir: string, file: string): string => `${url}|${dir}|${file}`;\n",
      "lib/meta.ts": "export const meta = [import.meta.url, import.meta.dirname, import.meta.filename] as const;\n",
    });

    const config = await load();

    const places = Object.values(config.functions ?? {}).map((fn) => fn.env?.AT);
    expect(places).toEqual([
      `${pathToFileURL(t.path("svc.ts")).href}|${t.root}|${t.path("svc.ts")}`,
      `${pathToFileURL(t.path("lib/meta.ts")).href}|${t.path("lib")}|${t.path("lib/meta.ts")}`,
    ]);
  });
});
