import { existsSync, readdirSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type * as Esbuild from "esbuild";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { applyPlan, createBranch, createPlatformApi, defineConfig, plan, pushConfig, toSavedPlan } from "../../../src/v1.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

/** Entry points of every esbuild `build` call, by function folder. */
const builds = vi.hoisted(() => ({ calls: [] as string[][] }));

vi.mock("esbuild", async (importOriginal) => {
  const real = await importOriginal<typeof Esbuild>();
  const build = (options: Esbuild.BuildOptions) => {
    const points = (options.entryPoints ?? []) as (string | { in: string })[];
    builds.calls.push(points.map((p) => (typeof p === "string" ? p : p.in).split("/").at(-2) ?? ""));
    return real.build(options);
  };
  return { ...real, build, default: { ...real, build } };
});

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timings: { opSchedulingMs: 5, opRunMs: 10, deployPendingMs: 5, deployBuildMs: 10, domainActivationMs: 5 } });
});
afterAll(async () => emu.close());

const trees: TempTree[] = [];
afterEach(() => {
  builds.calls.length = 0;
  for (const tree of trees.splice(0)) tree.remove();
});

const SLUGS = ["alpha", "beta", "gamma"];
const polling = { initialMs: 20, maxMs: 50 };

/** A policy directory with three esbuild functions, and a policy object for it. */
function project() {
  const tree = createTempTree(Object.fromEntries(SLUGS.map((slug) => [`${slug}/index.ts`, `export default () => new Response(${JSON.stringify(slug)});\n`])));
  trees.push(tree);
  const config = defineConfig({ functions: Object.fromEntries(SLUGS.map((slug) => [slug, { name: slug, source: `./${slug}` }])) });
  return { tree, config };
}

async function freshBranch(name: string): Promise<string> {
  const client = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling });
  const created = await client.createBranch({ projectId: emu.projectId, branch: { name } });
  await client.waitForOperations({ projectId: emu.projectId, operations: created.operations });
  return created.branch.id;
}

describe("a run bundles each function once, in one esbuild call", () => {
  it("pushConfig deploys the archives it planned", async () => {
    const { tree, config } = project();
    const branchId = await freshBranch("once-push");
    const result = await pushConfig(config, { projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: tree.root, polling });
    expect(result.applied).toHaveLength(3);
    expect(builds.calls).toEqual([SLUGS]);
  });

  it("applyPlan after a plan of the same policy object deploys the plan's archives; an edited source is rebuilt", async () => {
    const { tree, config } = project();
    const branchId = await freshBranch("once-plan-apply");
    const options = { projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: tree.root, polling };
    const planned = await plan(config, options);
    const applied = await applyPlan(toSavedPlan(planned), { ...options, config });
    expect(applied.applied).toHaveLength(3);
    expect(applied.bundles).toEqual(planned.bundles);
    expect(builds.calls).toEqual([SLUGS]);

    tree.write("beta/index.ts", "export default () => new Response('beta 2');\n");
    const replanned = await plan(config, options);
    expect(builds.calls).toEqual([SLUGS, ["beta"]]);
    expect(replanned.changes.map((c) => c.id)).toEqual(["update:function.beta"]);
  });

  it("a custom bundler runs once for a plan and the applyPlan after it, and again for a newly loaded policy", async () => {
    const { tree } = project();
    const branchId = await freshBranch("once-custom");
    let calls = 0;
    const policy = () =>
      defineConfig({
        functions: {
          made: { name: "made", source: "./alpha", bundler: async () => (calls++, { "index.mjs": "export default () => new Response('made');\n" }) },
        },
      });
    const config = policy();
    const options = { projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: tree.root, polling };
    const planned = await plan(config, options);
    await applyPlan(toSavedPlan(planned), { ...options, config });
    expect(calls).toBe(1);
    expect((await plan(policy(), options)).changes).toEqual([]);
    expect(calls).toBe(2);
  });

  it("createBranch bundles once before creating the branch", async () => {
    const { tree, config } = project();
    const created = await createBranch(config, { projectId: emu.projectId, branchName: "once-create", apiKey: emu.apiKey, baseDir: tree.root, polling, api: createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost, polling }) });
    expect(created.result.applied.length).toBeGreaterThanOrEqual(3);
    expect(builds.calls).toEqual([SLUGS]);
  });

  it("with cacheDir, a fresh policy object plans from the cache without building, and writes nothing without one", async () => {
    const first = project();
    const branchId = await freshBranch("once-cache");
    const cacheDir = first.tree.path("node_modules/.cache/svc-config");
    const options = { projectId: emu.projectId, branchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: first.tree.root, polling };
    const cold = await plan(first.config, { ...options, cacheDir });
    expect(builds.calls).toEqual([SLUGS]);
    expect(readdirSync(cacheDir).length).toBeGreaterThan(0);

    const again = defineConfig({ functions: Object.fromEntries(SLUGS.map((slug) => [slug, { name: slug, source: `./${slug}` }])) });
    const warm = await plan(again, { ...options, cacheDir });
    expect(builds.calls).toEqual([SLUGS]);
    expect(warm.bundles).toEqual(cold.bundles);

    const other = project();
    await plan(other.config, { ...options, baseDir: other.tree.root });
    expect(existsSync(other.tree.path("node_modules"))).toBe(false);
  });
});
