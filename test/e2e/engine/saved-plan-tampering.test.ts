/**
 * What is shown is what runs: a saved plan edited in any field a view shows, or whose unseen
 * part changed (an env value), is refused as stale naming what differs, and nothing is applied.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { apply, applyPlan, createPlatformApi, defineConfig, isPlatformError, plan, toSavedPlan, type SavedPlan } from "../../../src/v1.js";

const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ timings: INSTANT });
  dir = mkdtempSync(join(tmpdir(), "svc-tamper-"));
  mkdirSync(join(dir, "fn"));
  writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('ok');\n");
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = () => ({ projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost });
const platformState = (): unknown => emu.state.snapshot().projects;
const policy = (env: Record<string, string> = { KEY: "one" }) =>
  defineConfig({ buckets: { fresh: {} }, prune: { buckets: true }, functions: { api: { name: "Api", source: join(dir, "fn"), bundler: "none", env } } });

beforeEach(async () => {
  // Each case starts from the same branch: media (to be pruned), no fresh bucket, no function.
  const platform = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
  const ref = { projectId: emu.projectId, branchId: emu.defaultBranchId };
  const buckets = (await platform.listBuckets(ref)).map((b) => b.name);
  if (!buckets.includes("media")) await platform.createBucket({ ...ref, name: "media" });
  if (buckets.includes("fresh")) await platform.deleteBucket({ ...ref, bucket: "fresh" });
  if ((await platform.listFunctions(ref)).some((f) => f.slug === "api")) await platform.deleteFunction({ ...ref, slug: "api" });
});

/** A plan saved as a file would be: through JSON. */
async function savedPlan(): Promise<SavedPlan> {
  return JSON.parse(JSON.stringify(toSavedPlan(await plan(policy(), ids())))) as SavedPlan;
}

async function refusal(saved: unknown, config = policy()): Promise<{ message: string; differences: { item: string; what: string }[] }> {
  const before = platformState();
  const err = await applyPlan(saved as SavedPlan, { ...ids(), config, updateExisting: true }).then(() => undefined, (e: unknown) => e);
  expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), String(err)).toBe(true);
  expect(platformState()).toEqual(before);
  const details = (err as { details: { differences?: { item: string; what: string }[] } }).details;
  return { message: (err as Error).message, differences: details.differences ?? [] };
}

type Edit = (plan: SavedPlan & Record<string, unknown>) => void;
const change = (plan: SavedPlan, address: string): Record<string, unknown> => plan.changes.find((c) => c.address === address) as unknown as Record<string, unknown>;

describe("a saved plan runs only as it was shown", () => {
  it("applies an untouched saved plan after its JSON round trip", async () => {
    const saved = await savedPlan();
    const result = await applyPlan(saved, { ...ids(), config: policy(), updateExisting: true });
    expect(result.applied.map((a) => a.id)).toEqual(saved.changes.map((c) => c.id));
  });

  it.each<[string, Edit, string]>([
    ["a delete shown as a create", (p) => (change(p, "bucket.media").action = "create"), "change bucket.media: action differs"],
    ["an override shown as additive", (p) => (change(p, "bucket.media").class = "additive"), "change bucket.media: class differs"],
    ["another address", (p) => (change(p, "bucket.media").address = "bucket.other"), "change bucket.other: is in the saved plan but no longer planned"],
    ["an edited after", (p) => (change(p, "bucket.fresh").after = { access: "public_read" }), "change bucket.fresh: after differs"],
    ["an edited reason", (p) => (change(p, "bucket.media").reason = "harmless cleanup"), "change bucket.media: reason differs"],
    ["a dropped change", (p) => p.changes.splice(p.changes.findIndex((c) => c.address === "bucket.fresh"), 1), "change bucket.fresh: is planned now but not in the saved plan"],
    ["an edited summary", (p) => (p.summary = { create: 2, update: 0, delete: 0, conflicts: 0 }), "summary: differs"],
    ["an edited branch name", (p) => (p.branchName = "scratch"), "branchName: differs from the branch"],
    ["an edited unmanaged list", (p) => (p.unmanaged = [{ address: "bucket.x", kind: "bucket", identifier: "x", reason: "r" }]), "unmanaged bucket.x: is in the saved plan but not in the fresh one"],
  ])("refuses %s as stale, naming what differs", async (_label, edit, difference) => {
    const saved = (await savedPlan()) as SavedPlan & Record<string, unknown>;
    edit(saved);
    const { message, differences } = await refusal(saved);
    expect(differences.map((d) => `${d.item}: ${d.what}`).join("\n")).toContain(difference);
    expect(message).toContain(difference);
  });

  it("refuses a saved plan that hides a warning the plan gives", async () => {
    const config = defineConfig({ preview: { buckets: { fresh: {} } } });
    const saved = JSON.parse(JSON.stringify(toSavedPlan(await plan(config, ids())))) as SavedPlan;
    expect(saved.warnings.map((w) => w.code)).toEqual(["DEPRECATED_PREVIEW_KEY"]);
    const { differences } = await refusal({ ...saved, warnings: [] }, config);
    expect(differences).toEqual([{ item: "warning DEPRECATED_PREVIEW_KEY", what: "is in the fresh plan but not in the saved one" }]);
  });

  it("names the function whose env value changed since the plan, never the value", async () => {
    await apply(policy({ KEY: "one" }), { ...ids(), updateExisting: true });
    const saved = JSON.parse(JSON.stringify(toSavedPlan(await plan(policy({ KEY: "two" }), ids())))) as SavedPlan;
    expect(saved.changes.map((c) => c.id)).toEqual(["update:function.api"]);
    const { message, differences } = await refusal(saved, policy({ KEY: "three-secret-value" }));
    expect(differences).toEqual([{ item: "change function.api", what: "env: a value changed since the plan was made (values are never shown)" }]);
    expect(message).not.toContain("two-secret-value");
  });

  it("refuses a plan saved for another target", async () => {
    const saved = await savedPlan();
    const err = await applyPlan(saved, { ...ids(), branchId: "br-other-1", config: policy() }).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: "PLATFORM_STALE_PLAN", details: { reason: "target" } });
  });
});
