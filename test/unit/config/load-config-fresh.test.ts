import { afterEach, describe, expect, it } from "vitest";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

function makeTree(files: Record<string, string>): TempTree {
  tree = createTempTree({ ".git/": "", ...files });
  return tree;
}

async function loadFrom(t: TempTree): Promise<unknown> {
  return (await loadConfigFromFile({ cwd: t.root, stopAt: t.root })).config;
}

const policySource = (aiGateway: boolean): string =>
  `import { auth } from "./helper.mjs";\nexport default { auth, aiGateway: ${aiGateway} };\n`;
const helperSource = (auth: boolean): string => `export const auth = ${auth};\n`;

describe("fresh evaluation on every call", () => {
  it.each(["svc.ts", "svc.mts", "svc.js", "svc.mjs"])(
    "sees edits to %s and to its local .mjs helper on the second load in the same process",
    async (name) => {
      const t = makeTree({ [name]: policySource(false), "helper.mjs": helperSource(true) });
      expect(await loadFrom(t)).toMatchObject({ auth: true, aiGateway: false });

      t.write(name, policySource(true));
      t.write("helper.mjs", helperSource(false));
      expect(await loadFrom(t)).toMatchObject({ auth: false, aiGateway: true });
    },
  );

  it.each([
    ["an ES module .js helper", "helper.js", (v: boolean) => `export const auth = ${v};`],
    ["a CommonJS .js helper", "helper.js", (v: boolean) => `exports.auth = ${v};`],
    ["a .cjs helper", "helper.cjs", (v: boolean) => `module.exports = { auth: ${v} };`],
    ["a .ts helper", "helper.ts", (v: boolean) => `export const auth: boolean = ${v};`],
    ["a .mts helper", "helper.mts", (v: boolean) => `export const auth: boolean = ${v};`],
  ])("re-runs %s after it is edited", async (_label, helper, source) => {
    const t = makeTree({
      "svc.ts": `import { auth } from "./${helper}";\nexport default { auth };\n`,
      [helper]: source(true),
    });
    expect(await loadFrom(t)).toMatchObject({ auth: true });

    t.write(helper, source(false));
    expect(await loadFrom(t)).toMatchObject({ auth: false });
  });

  it("re-runs a helper that is imported by another helper", async () => {
    const t = makeTree({
      "svc.mjs": 'import { auth } from "./lib/index.mjs";\nexport default { auth };\n',
      "lib/index.mjs": 'export { auth } from "./flag.cjs";\n',
      "lib/flag.cjs": "exports.auth = true;\n",
    });
    expect(await loadFrom(t)).toMatchObject({ auth: true });

    t.write("lib/flag.cjs", "exports.auth = false;\n");
    expect(await loadFrom(t)).toMatchObject({ auth: false });
  });

  it("evaluates the policy again even when its source is unchanged", async () => {
    const t = makeTree({
      "svc.ts": "(globalThis as { svcLoadCount?: number }).svcLoadCount = ((globalThis as { svcLoadCount?: number }).svcLoadCount ?? 0) + 1;\nexport default { auth: true };\n",
    });
    const counter = globalThis as { svcLoadCount?: number };
    try {
      await loadFrom(t);
      await loadFrom(t);
      expect(counter.svcLoadCount).toBe(2);
    } finally {
      delete counter.svcLoadCount;
    }
  });

  it("loads two projects concurrently, each with its own helper of the same name", async () => {
    const first = createTempTree({ ".git/": "", "svc.ts": policySource(false), "helper.mjs": helperSource(true) });
    const second = createTempTree({ ".git/": "", "svc.ts": policySource(true), "helper.mjs": helperSource(false) });
    try {
      const [a, b] = await Promise.all([loadFrom(first), loadFrom(second)]);
      expect(a).toMatchObject({ auth: true, aiGateway: false });
      expect(b).toMatchObject({ auth: false, aiGateway: true });
    } finally {
      first.remove();
      second.remove();
    }
  });

  it("keeps evaluating afresh when JITI_* environment variables ask for caching", async () => {
    const overrides = { JITI_MODULE_CACHE: "true", JITI_FS_CACHE: "true", JITI_TRY_NATIVE: "true", JITI_ALIAS: '{"./helper.mjs":"./nowhere.mjs"}' };
    const saved = Object.fromEntries(Object.keys(overrides).map((key) => [key, process.env[key]]));
    Object.assign(process.env, overrides);
    try {
      const t = makeTree({ "svc.mjs": policySource(false), "helper.mjs": helperSource(true) });
      expect(await loadFrom(t)).toMatchObject({ auth: true, aiGateway: false });
      t.write("svc.mjs", policySource(true));
      t.write("helper.mjs", helperSource(false));
      expect(await loadFrom(t)).toMatchObject({ auth: false, aiGateway: true });
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
