/**
 * The CLI's bundle cache: `node_modules/.cache/svc-config` beside svc.ts by default, nothing
 * written with `--no-cache`, and the same archives either way. Real bin, real emulator.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyDir, emulatorEnv, runSvc, useEmulatorProject } from "./harness.js";

const { emu } = useEmulatorProject();

/** A project whose svc.ts lives in `infra/`, with one esbuild and one prebuilt function. */
function project(): { root: string; policyDir: string } {
  const root = emptyDir();
  const policyDir = join(root, "infra");
  for (const dir of ["infra/api", "infra/static"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(policyDir, "api", "index.ts"), "export default () => new Response('api');\n");
  writeFileSync(join(policyDir, "static", "index.mjs"), "export default () => new Response('static');\n");
  writeFileSync(
    join(policyDir, "svc.ts"),
    'export default { functions: { api: { name: "Api", source: "./api" }, files: { name: "Files", source: "./static", bundler: "none" } } };\n',
  );
  return { root, policyDir };
}

function cacheFiles(policyDir: string): string[] {
  const dir = join(policyDir, "node_modules", ".cache", "svc-config", "v2");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe("the CLI's bundle cache", () => {
  it("lives in node_modules/.cache/svc-config beside svc.ts; --no-cache writes nothing and plans the same archives", async () => {
    const { root, policyDir } = project();
    const env = emulatorEnv(emu());
    const plan = async (name: string, ...flags: string[]) => {
      const run = await runSvc(["config", "plan", "--config", "infra/svc.ts", "--out", name, ...flags], { cwd: root, env });
      expect(run.code).toBe(0);
      return (JSON.parse(readFileSync(join(root, name), "utf8")) as { bundles: Record<string, { zipSha256: string }> }).bundles;
    };
    const uncached = await plan("uncached.json", "--no-cache");
    expect(existsSync(join(policyDir, "node_modules"))).toBe(false);
    expect(existsSync(join(root, "node_modules"))).toBe(false);

    const cold = await plan("cold.json");
    const written = cacheFiles(policyDir);
    expect(written).toHaveLength(2);
    expect(written.every((f) => f.endsWith(".entry"))).toBe(true);
    const warm = await plan("warm.json");
    expect(cacheFiles(policyDir)).toEqual(written);

    expect(Object.keys(uncached).sort()).toEqual(["api", "files"]);
    expect(cold).toEqual(uncached);
    expect(warm).toEqual(uncached);
  });

  it("validate fills the cache unless --no-cache", async () => {
    const { policyDir } = project();
    const skipped = await runSvc(["config", "validate", "--no-cache"], { cwd: policyDir, env: {} });
    expect(skipped.code).toBe(0);
    expect(cacheFiles(policyDir)).toEqual([]);

    const cached = await runSvc(["config", "validate"], { cwd: policyDir, env: {} });
    expect(cached.code).toBe(0);
    expect(cacheFiles(policyDir)).toHaveLength(2);
  });

  it("has every entry of a cold apply written when the apply exits (its plan took the archives before they were written), and the next plan reads them", async () => {
    const { root, policyDir } = project();
    const env = emulatorEnv(emu());
    const applied = await runSvc(["config", "apply", "--yes", "--quiet", "--config", "infra/svc.ts"], { cwd: root, env });
    expect(applied.code).toBe(0);
    const written = cacheFiles(policyDir);
    expect(written).toHaveLength(2);
    expect(written.every((f) => f.endsWith(".entry"))).toBe(true);
    const again = await runSvc(["config", "plan", "--config", "infra/svc.ts", "--quiet"], { cwd: root, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("0 to create");
    expect(cacheFiles(policyDir)).toEqual(written);
  });
});
