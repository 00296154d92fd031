/**
 * Builds started when the policy is loaded (`engine/bundle-head-start.ts`): the plan takes them
 * when they are its own (one esbuild call, the same archives, progress and warnings as a plan that
 * bundles itself), reports the same error as before when the target, the policy's closure or a
 * build fails, and a cancelled head start leaves nothing running and no partial cache entry.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type * as Esbuild from "esbuild";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { type BundleHeadStart, startBundleHeadStart } from "../../../src/engine/bundle-head-start.js";
import { planToShow } from "../../../src/engine/shown-plan.js";
import { defineConfig, type PolicyConfig, type PushResult } from "../../../src/v1.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

/** How many esbuild `build` calls ran, and how many entries each had. */
const esbuildCalls = vi.hoisted((): number[] => []);

vi.mock("esbuild", async (importOriginal) => {
  const real = await importOriginal<typeof Esbuild>();
  const counted = { ...real, build: (options: Esbuild.BuildOptions) => (esbuildCalls.push(Object.keys(options.entryPoints ?? {}).length), real.build(options)) };
  return { ...counted, default: counted };
});

const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };
let emu: RunningEmulator;
const trees: TempTree[] = [];
beforeAll(async () => void (emu = await startEmulator({ timings: INSTANT })));
afterAll(() => emu.close());
afterEach(() => {
  esbuildCalls.splice(0);
  for (const tree of trees.splice(0)) tree.remove();
});

const SLUGS = ["alpha", "beta", "gamma"];

/** A project of three esbuild functions (beta's comparison with NaN is an esbuild warning), and options to plan it. */
function project(files: Record<string, string> = {}) {
  const tree = createTempTree({
    ...Object.fromEntries(SLUGS.map((slug) => [`${slug}/index.ts`, `export default () => new Response(${JSON.stringify(slug)});\n`])),
    "beta/index.ts": "export default (x: number) => new Response(String(x === NaN));\n",
    ...files,
  });
  trees.push(tree);
  const cacheDir = join(tree.root, "cache");
  const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: tree.root, cacheDir };
  return { tree, cacheDir, options };
}

function policy(extra: Partial<PolicyConfig> = {}): PolicyConfig {
  return defineConfig({ functions: Object.fromEntries(SLUGS.map((slug) => [slug, { name: slug, source: `./${slug}` }])), ...extra });
}

/** A plan's outcome: its result with each bundle event, or what it threw. */
async function planned(config: PolicyConfig, options: ReturnType<typeof project>["options"], headStart?: BundleHeadStart) {
  const events: string[] = [];
  const onEvent = (e: { type: string; slug?: string; phase?: string }): void => {
    if (e.type === "bundle") events.push(`${e.slug ?? ""} ${e.phase ?? ""}`);
  };
  return planToShow(config, { ...options, onEvent }, headStart).then(
    (result: PushResult) => ({ result, events: events.sort() }),
    (error: unknown) => ({ error, events }),
  );
}

/** The cache directory's entry files; a name that is not `<identity>.entry` would be a partial write. */
function cacheFiles(cacheDir: string): string[] {
  try {
    return readdirSync(join(cacheDir, "v2"));
  } catch {
    return [];
  }
}

describe("bundling started when the policy is loaded", () => {
  it("is taken by the plan: one esbuild call, the same archives, progress and warnings as a plan that bundles itself", async () => {
    const { cacheDir, options } = project();
    const config = policy();
    const headStart = startBundleHeadStart(config, options);
    expect(headStart).toBeDefined();
    const early = await planned(config, options, headStart);
    expect(esbuildCalls).toEqual([SLUGS.length]);

    const again = project();
    const itself = await planned(policy(), again.options);
    expect("result" in early && "result" in itself).toBe(true);
    if (!("result" in early) || !("result" in itself)) return;
    expect(early.result.bundles).toEqual(itself.result.bundles);
    expect(Object.keys(early.result.bundles)).toEqual(SLUGS);
    expect(early.result.warnings).toEqual(itself.result.warnings);
    expect(early.result.warnings.some((w) => w.code === "BUNDLER" && w.address === "function.beta")).toBe(true);
    expect(early.events).toEqual(itself.events);
    expect(early.events).toEqual(SLUGS.flatMap((slug) => [`${slug} done`, `${slug} start`]).sort());
    // The plan took the archives before their entries were written; they are complete once the head start says so.
    await headStart?.written();
    expect(cacheFiles(cacheDir)).toHaveLength(3);
    expect(cacheFiles(cacheDir).every((name) => name.endsWith(".entry"))).toBe(true);
  });

  it("is not started when the cache already holds an entry per function, nor for a custom bundler", async () => {
    const { options } = project();
    expect((await planned(policy(), options)).events).toHaveLength(6);
    expect(startBundleHeadStart(policy(), options)).toBeUndefined();
    const custom = policy({ functions: { alpha: { name: "alpha", source: "./alpha", bundler: async () => ({ "index.mjs": "export default 1;" }) } } });
    expect(startBundleHeadStart(custom, { ...options, cacheDir: join(options.cacheDir, "other") })).toBeUndefined();
  });

  it("is cancelled, and the plan bundles itself, when the plan bundles with other settings", async () => {
    const { options } = project();
    const config = policy();
    const headStart = startBundleHeadStart(config, { ...options, cacheDir: join(options.cacheDir, "elsewhere") });
    const outcome = await planned(config, options, headStart);
    expect("result" in outcome).toBe(true);
    expect(outcome.events).toHaveLength(6);
    expect(cacheFiles(join(options.cacheDir, "elsewhere")).every((name) => name.endsWith(".entry"))).toBe(true);
  });

  it("reports a build's failure as the plan always did", async () => {
    const { options } = project({ "gamma/index.ts": "export default ( =>\n" });
    const early = await planned(policy(), options, startBundleHeadStart(policy(), options));
    const itself = await planned(policy(), project({ "gamma/index.ts": "export default ( =>\n" }).options);
    expect("error" in early && "error" in itself).toBe(true);
    if (!("error" in early) || !("error" in itself)) return;
    expect(String(early.error).replaceAll(/\/[^\s:]*svc-[^\s/]*/g, "<dir>")).toEqual(String(itself.error).replaceAll(/\/[^\s:]*svc-[^\s/]*/g, "<dir>"));
    expect((early.error as { code?: string }).code).toBe("PLATFORM_BUNDLE_FAILED");
  });

  it.each([
    ["a target error (an unknown project)", { projectId: "no-such-project-1" }, {}, "PLATFORM_NOT_FOUND"],
    ["a policy error (the branch closure throws)", {}, { branch: () => { throw new Error("closure broke"); } }, "PLATFORM_CONFIG_INVALID"],
  ] as const)("reports %s before a failing build, as before, and leaves no partial cache entry once cancelled", async (_name, target, extra, code) => {
    const { cacheDir, options } = project({ "gamma/index.ts": "export default ( =>\n" });
    const config = policy(extra as Partial<PolicyConfig>);
    const headStart = startBundleHeadStart(config, options);
    // A policy with a branch closure bundles after it (see the row on a closure that writes a source).
    expect(headStart === undefined).toBe("branch" in extra);
    const early = await planned(config, { ...options, ...target }, headStart);
    const itself = await planned(policy(extra as Partial<PolicyConfig>), { ...project({ "gamma/index.ts": "export default ( =>\n" }).options, ...target });
    expect("error" in early && "error" in itself).toBe(true);
    if (!("error" in early) || !("error" in itself)) return;
    expect((early.error as { code?: string }).code).toBe(code);
    const message = (e: unknown): string => (e as Error).message.replace(/request id [0-9a-f-]+/, "request id <id>");
    expect(message(early.error)).toEqual(message(itself.error));
    expect(early.events).toEqual([]);
    await headStart?.cancel();
    expect(cacheFiles(cacheDir).every((name) => name.endsWith(".entry"))).toBe(true);
  });

  // Hostile row: the closure runs after the policy is loaded and may generate a file a function
  // imports; a build started before it would deploy the file as it was before the closure wrote it.
  it("is not started for a policy with a branch closure, so what the closure writes for the branch is what is bundled", async () => {
    const { tree, cacheDir, options } = project({ "alpha/index.ts": 'import gen from "./gen.json";\nexport default () => new Response(gen.branch);\n', "alpha/gen.json": '{"branch":"before the closure"}' });
    const config = policy({
      branch: (t) => {
        tree.write("alpha/gen.json", JSON.stringify({ branch: t.name }));
        return {};
      },
    });
    const headStart = startBundleHeadStart(config, options);
    // Were it started, its builds would finish first (they race the closure): wait for their entries.
    for (let waited = 0; headStart !== undefined && cacheFiles(cacheDir).length < SLUGS.length && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const outcome = await planned(config, options, headStart);
    // The same project with the closure's file written beforehand gives the same archive.
    const written = project({ "alpha/index.ts": 'import gen from "./gen.json";\nexport default () => new Response(gen.branch);\n', "alpha/gen.json": JSON.stringify({ branch: "main" }) });
    const expected = await planned(policy(), written.options);
    expect("result" in outcome && "result" in expected).toBe(true);
    if (!("result" in outcome) || !("result" in expected)) return;
    expect(outcome.result.bundles.alpha).toEqual(expected.result.bundles.alpha);
    expect(headStart).toBeUndefined();
  });

  it("starts nothing new once cancelled, and its outputs are not cached", async () => {
    const { cacheDir, options } = project();
    const headStart = startBundleHeadStart(policy(), options);
    await headStart?.cancel();
    expect(esbuildCalls.length).toBeLessThanOrEqual(1);
    expect(cacheFiles(cacheDir)).toEqual([]);
    expect(await headStart?.take([], {}, { onProgress: () => undefined, onWarning: () => undefined })).toBeUndefined();
  });
});
