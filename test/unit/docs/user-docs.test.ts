import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { resolvePolicy } from "../../../src/kinds/list.js";
import { createTempTree } from "../../helpers/temp-dir.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** README.md and every document under docs/: what ships with the package. */
const USER_DOCS = [join(ROOT, "README.md"), ...filesUnder(join(ROOT, "docs"), /\.md$/)];

describe("user documents", () => {
  it.each(USER_DOCS.map((f) => [relative(ROOT, f), f]))("%s links only to what ships, never to internal specs", (_name, file) => {
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/\.\.\/shared|spec\/|\u00a7|\bmilestones?\b/i);
    for (const [, target = ""] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const path = resolve(dirname(file), target);
      expect(relative(ROOT, path).startsWith(".."), `${target} leaves the package`).toBe(false);
      expect(existsSync(path), `${target} exists`).toBe(true);
    }
  });

  it("ship with the package, so every docs/ path a message names exists after install", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("docs");
    const sources = [...filesUnder(join(ROOT, "src", "cli"), /\.ts$/), join(ROOT, "examples", "demo.mjs")];
    const named = new Set(sources.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/\bdocs\/[\w./-]+\.(?:md|yml|json)/g)].map((m) => m[0])));
    expect(named).toContain("docs/policy.md");
    for (const path of named) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it("link the public svc.ts types to docs/policy.md, never to section numbers", () => {
    const files = ["config/policy-types.ts", "model/desired-state.ts", "kinds/dataApi/fields.ts", "kinds/list.ts", "config/durations.ts", "config/load-config.ts", "config/resolve-policy.ts"];
    for (const file of files) {
      const text = readFileSync(join(ROOT, "src", file), "utf8");
      expect(text, file).not.toContain("\u00a7");
    }
    const anchors = new Set(
      [...readFileSync(join(ROOT, "docs", "policy.md"), "utf8").matchAll(/^#+ (.+)$/gm)].map((m) => (m[1] ?? "").toLowerCase().replace(/[`]/g, "").replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-")),
    );
    const linked = readFileSync(join(ROOT, "src", "config", "policy-types.ts"), "utf8").matchAll(/docs\/policy\.md#([a-z0-9-]+)/g);
    for (const [, anchor = ""] of linked) expect(anchors, anchor).toContain(anchor);
  });
});

describe("docs/policy.md worked examples", () => {
  const text = readFileSync(join(ROOT, "docs", "policy.md"), "utf8");
  const examples = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").filter((code) => code.includes("export default defineConfig"));
  const tree = createTempTree({ ".git/": "" });
  afterAll(() => tree.remove());

  it("has one per section", () => {
    expect(examples.length).toBeGreaterThanOrEqual(9);
  });

  it.each(examples.map((code, i) => [i + 1, code]))("example %i loads and resolves on the default branch and on a preview", async (_i, code) => {
    const source = code.includes("import { defineConfig }") ? code : `import { defineConfig } from "svc-config/v1";\n${code}`;
    tree.write("svc.ts", source);
    const { config } = await loadConfigFromFile({ cwd: tree.root });
    const base = { exists: true, createdAt: "2026-01-01T00:00:00Z" };
    expect(() => resolvePolicy(config, { ...base, name: "main", id: "br-main-1", isDefault: true })).not.toThrow();
    expect(() => resolvePolicy(config, { ...base, name: "preview/pr-1", id: "br-pr-2", isDefault: false })).not.toThrow();
  });
});
