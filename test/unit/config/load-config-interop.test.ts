import { afterAll, describe, expect, it } from "vitest";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { createTempTree } from "../../helpers/temp-dir.js";

/**
 * A policy that imports a helper that imports another helper, across every pair of module kinds a
 * project holds: the default export of each must arrive as the value it exports, as Node gives it.
 */
const KINDS = ["ts", "mts", "js", "mjs", "cjs"] as const;
type Kind = (typeof KINDS)[number];
const POLICY_KINDS = ["ts", "mts", "js", "mjs"] as const;

/** The innermost module: exports `{ auth: true }` as its default (`module.exports` for CommonJS). */
function leaf(kind: Kind): string {
  return kind === "cjs" ? "module.exports = { auth: true };\n" : "export default { auth: true };\nexport const unused = 1;\n";
}

/** A module that re-exports the default value of `./<target>` as its own default. */
function middle(kind: Kind, target: string, targetKind: Kind): string {
  if (kind !== "cjs") return `import inner from "./${target}";\nexport default inner;\n`;
  // A CommonJS file requires an ES module as its namespace (Node's require(esm)), a CommonJS one as its exports.
  return targetKind === "cjs" ? `module.exports = require("./${target}");\n` : `module.exports = require("./${target}").default;\n`;
}

const tree = createTempTree({ ".git/": "" });
afterAll(() => tree.remove());

const cases = POLICY_KINDS.flatMap((policy) => KINDS.flatMap((a) => KINDS.map((b) => [policy, a, b] as const)));

describe("default imports across module kinds", () => {
  it.each(cases)("svc.%s → a.%s → b.%s gives the policy the value b exports", async (policy, a, b) => {
    const dir = `${policy}-${a}-${b}`;
    tree.write(`${dir}/b.${b}`, leaf(b));
    tree.write(`${dir}/a.${a}`, middle(a, `b.${b}`, b));
    tree.write(`${dir}/svc.${policy}`, `import base from "./a.${a}";\nexport default { ...base };\n`);
    const { config } = await loadConfigFromFile({ cwd: tree.path(dir), stopAt: tree.root });
    expect(config).toEqual({ auth: true });
  });

  it("keeps named imports and namespace imports of an ES module from an .mjs helper", async () => {
    tree.write("named/b.mjs", 'export const bucket = "uploads";\nexport default { auth: true };\n');
    tree.write("named/a.mjs", 'import base, { bucket } from "./b.mjs";\nimport * as ns from "./b.mjs";\nexport default { ...base, buckets: { [bucket]: {}, [ns.bucket + "2"]: {} } };\n');
    tree.write("named/svc.ts", 'import a from "./a.mjs";\nexport default a;\n');
    const { config } = await loadConfigFromFile({ cwd: tree.path("named"), stopAt: tree.root });
    expect(config).toEqual({ auth: true, buckets: { uploads: {}, uploads2: {} } });
  });

  it("gives an .mjs helper the whole module.exports of a CommonJS file, as Node does", async () => {
    tree.write("cjs/b.cjs", "module.exports = { auth: true };\nmodule.exports.extra = 1;\n");
    tree.write("cjs/a.mjs", 'import b from "./b.cjs";\nexport default { auth: b.auth, buckets: { [`n${b.extra}`]: {} } };\n');
    tree.write("cjs/svc.mts", 'import a from "./a.mjs";\nexport default a;\n');
    const { config } = await loadConfigFromFile({ cwd: tree.path("cjs"), stopAt: tree.root });
    expect(config).toEqual({ auth: true, buckets: { n1: {} } });
  });
});
