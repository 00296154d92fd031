/**
 * The CLI's bundle cache: `node_modules/.cache/svc-config` beside svc.ts by default, nothing
 * written with `--no-cache`, and the same archives either way. Real bin, real emulator.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
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

  // Hostile row: the apply's changes do not wait for the plan's cache writes, so a `deploy.before`
  // hook may find the entries written or still being written. It swaps the two entries (each a
  // valid archive of the other function): what runs is the planned code, or the function is
  // refused by name with nothing sent for it; never the swapped bytes.
  it("deploys the planned code, or refuses the function, when a deploy.before hook swaps the cache entries of a cold apply", async () => {
    const { root, policyDir } = project();
    const swap = join(root, "swap.mjs");
    writeFileSync(swap, [
      'import { readdirSync, readFileSync, writeFileSync } from "node:fs";',
      `const dir = ${JSON.stringify(join(policyDir, "node_modules", ".cache", "svc-config", "v2"))};`,
      'const [a, b] = readdirSync(dir).filter((f) => f.endsWith(".entry")).map((f) => `${dir}/${f}`);',
      "const bytesA = readFileSync(a);",
      "writeFileSync(a, readFileSync(b));",
      "writeFileSync(b, bytesA);",
      "",
    ].join("\n"));
    const policy = join(policyDir, "svc.ts");
    writeFileSync(policy, readFileSync(policy, "utf8").replace("export default {", `export default { hooks: { deploy: { before: ${JSON.stringify(`node ${JSON.stringify(swap)}`)} } },`));
    const applied = await runSvc(["config", "apply", "--yes", "--quiet", "--config", "infra/svc.ts"], { cwd: root, env: emulatorEnv(emu()) });
    const api = createPlatformApi({ apiKey: emu().apiKey, apiHost: emu().apiHost });
    const deployed = await api.listFunctions({ projectId: emu().projectId, branchId: emu().defaultBranchId });
    for (const [slug, body] of [["api", "api"], ["files", "static"]] as const) {
      const fn = deployed.find((f) => f.slug === slug);
      if (fn?.invocation_url !== undefined) expect(await (await fetch(fn.invocation_url)).text()).toBe(body);
      else expect(applied.stderr).toMatch(new RegExp(`PLATFORM_BUNDLE_FAILED[^\\n]*function ${slug}: its planned archive could not be read back`));
    }
    expect(applied.code === 0 || applied.stderr.includes("PLATFORM_BUNDLE_FAILED"), applied.stderr).toBe(true);
  });
});
