/**
 * The safety invariants as a property: random policies × random live branches × random flags,
 * planned and applied against the emulator over real HTTP. For every plan: no change deletes a
 * declared resource (or its look-alike), a resource something on the branch still uses, or data
 * without `allowDataLoss`; a second plan after an apply on a replica is empty; the saved plan
 * survives its JSON round trip and applies, while an edited copy is refused with nothing changed;
 * after the apply, the next plan is empty. The expectations are computed here from the seeded
 * branch, not with the engine's helpers, so a broken guard in the engine cannot hide itself.
 *
 * `npm test` runs a few seconds' worth (SVC_INVARIANT_RUNS, default 8); `npm run
 * test:reliability` runs 150. A failure prints fast-check's seed and path; SVC_INVARIANT_SEED
 * replays it.
 */
import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { isLookalikeName } from "../../src/rules/names.js";
import { applyPlan, defineConfig, isPlatformError, plan, toSavedPlan, type Change, type PolicyConfig, type PushResult, type SavedPlan } from "../../src/v1.js";
import { SEEDED, type BranchSeed, seedWith } from "../helpers/seed-branch.js";
import { type ApplyFlags, flagsArb, liveBranchArb, policyArb } from "./invariant-arbitraries.js";

const RUNS = Number(process.env.SVC_INVARIANT_RUNS ?? "8");
const SEED = Number(process.env.SVC_INVARIANT_SEED ?? "20261126");
const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-invariants-"));
  mkdirSync(join(dir, "fn"));
  writeFileSync(join(dir, "fn", "index.mjs"), "export default () => new Response('ok');\n");
  emu = await startEmulator({ timings: INSTANT, seed: seedWith(), apiKey: SEEDED.apiKey });
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = () => ({ projectId: SEEDED.projectId, branchId: SEEDED.branchId, apiKey: SEEDED.apiKey, apiHost: emu.apiHost, baseDir: dir });
const platformState = (): unknown => emu.state.snapshot().projects;

/** What uses what on the seeded branch, read from the seed itself. */
function liveFacts(branch: Partial<BranchSeed>) {
  return {
    owners: new Map((branch.databases ?? []).map((d) => [d.name, d.owner_name])),
    withObjects: new Set((branch.objects ?? []).map((o) => o.bucket)),
    usedDatabases: new Set([...(branch.auth?.database_name === undefined ? [] : [branch.auth.database_name]), ...(branch.data_api ?? []).map((d) => d.database)]),
    triggersOf: (slug: string) => (branch.triggers ?? []).filter((t) => t.function_slug === slug).map((t) => t.name),
    triggersOnBucket: (bucket: string) => (branch.triggers ?? []).filter((t) => t.bucket_name === bucket).map((t) => t.name),
  };
}

/** The databases the policy itself uses: its Data API's, and the one auth lives on. */
function policyDatabases(config: PolicyConfig): Set<string> {
  const dataApi = typeof config.dataApi === "object" ? config.dataApi.database ?? "neondb" : config.dataApi === true ? "neondb" : undefined;
  return new Set([...(dataApi === undefined ? [] : [dataApi]), ...(config.auth === true ? [dataApi ?? "neondb"] : [])]);
}

/** Every way the plan's deletes break the invariants (empty when they hold). */
function deleteViolations(changes: readonly Change[], config: PolicyConfig, branch: Partial<BranchSeed>, flags: ApplyFlags): string[] {
  const live = liveFacts(branch);
  const deleted = new Set(changes.filter((c) => c.action === "delete").map((c) => c.address));
  const declared: Record<string, readonly string[]> = {
    bucket: Object.keys(config.buckets ?? {}), role: Object.keys(config.roles ?? {}), database: Object.keys(config.databases ?? {}),
    function: Object.keys(config.functions ?? {}), trigger: Object.keys(config.triggers ?? {}),
  };
  const out: string[] = [];
  for (const change of changes.filter((c) => c.action === "delete")) {
    const name = change.address.slice(change.address.indexOf(".") + 1);
    const say = (why: string): void => void out.push(`${change.id}: ${why}`);
    const names = declared[change.kind] ?? [];
    if (names.includes(name)) say("deletes a declared resource");
    if (names.some((d) => isLookalikeName(d, name))) say("deletes the look-alike of a declared name");
    if (change.class === "additive") say("a delete classed additive needs no confirmation");
    if (change.kind === "bucket" && live.withObjects.has(name) && !(flags.allowDataLoss && change.class === "destructive")) say("deletes a bucket holding objects without allowDataLoss");
    if (change.kind === "bucket" && live.triggersOnBucket(name).some((t) => !deleted.has(`trigger.${t}`))) say("deletes a bucket a kept trigger uses");
    if (change.kind === "database") {
      if (!flags.allowDataLoss || change.class !== "destructive") say("deletes a database without allowDataLoss");
      if (live.usedDatabases.has(name)) say("deletes a database the live auth integration or a Data API uses");
      if (policyDatabases(config).has(name)) say("deletes the database the policy's auth or Data API uses");
    }
    if (change.kind === "role") {
      const owned = [...live.owners].filter(([db, owner]) => owner === name && !deleted.has(`database.${db}`) && (config.databases?.[db]?.owner ?? name) === name);
      if (owned.length > 0) say(`deletes a role that still owns ${owned.map(([db]) => db).join(", ")}`);
    }
    if (change.kind === "function" && live.triggersOf(name).some((t) => !deleted.has(`trigger.${t}`))) say("deletes a function a kept trigger uses");
  }
  return out;
}

/** One random edit of a field a view shows, or `undefined` when the plan has nothing to edit. */
function tampered(saved: SavedPlan, pick: number): SavedPlan | undefined {
  const copy = JSON.parse(JSON.stringify(saved)) as SavedPlan & { changes: (Change & Record<string, unknown>)[] };
  const change = copy.changes[pick % Math.max(1, copy.changes.length)];
  if (change === undefined) return undefined;
  const edits: (() => void)[] = [
    () => (change.action = change.action === "delete" ? "create" : "delete"),
    () => (change.class = change.class === "additive" ? "override" : "additive"),
    () => (change.reason = `${change.reason} (edited)`),
    () => (copy.summary = { ...copy.summary, delete: copy.summary.delete + 1 }),
  ];
  edits[pick % edits.length]?.();
  return copy;
}

async function checkOnce(policy: { config: PolicyConfig }, branch: Partial<BranchSeed>, flags: ApplyFlags, pick: number): Promise<void> {
  await emu.state.reset(seedWith(branch));
  const config = defineConfig(policy.config);
  const result: PushResult = await plan(config, { ...ids(), allowDataLoss: flags.allowDataLoss, verify: true });

  expect(deleteViolations(result.changes, policy.config, branch, flags)).toEqual([]);
  if (result.conflicts.some((c) => c.blocking)) return;
  expect(result.verification?.residual.map((c) => c.id), "a second plan after the replica apply").toEqual([]);
  expect(result.verification?.verified, JSON.stringify(result.verification?.failures)).toBe(true);

  const saved = JSON.parse(JSON.stringify(toSavedPlan(result))) as SavedPlan;
  const edited = tampered(saved, pick);
  if (edited !== undefined) {
    const before = platformState();
    const err = await applyPlan(edited, { ...ids(), config, updateExisting: true, allowDataLoss: flags.allowDataLoss }).then(() => undefined, (e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_STALE_PLAN"), `an edited saved plan must be refused: ${String(err)}`).toBe(true);
    expect(platformState()).toEqual(before);
  }
  await applyPlan(saved, { ...ids(), config, updateExisting: true, allowDataLoss: flags.allowDataLoss });
  const again = await plan(config, { ...ids(), allowDataLoss: flags.allowDataLoss });
  expect(again.changes.map((c) => c.id), "the plan after the apply").toEqual([]);
}

describe("safety invariants over random policies, live branches and flags", () => {
  it(`hold for ${RUNS} random cases (seed ${SEED})`, async () => {
    const started = performance.now();
    await fc.assert(fc.asyncProperty(policyArb, liveBranchArb, flagsArb, fc.nat(), checkOnce), { seed: SEED, numRuns: RUNS, endOnFailure: true });
    console.info(`safety invariants: ${RUNS} cases (seed ${SEED}) in ${Math.round(performance.now() - started)} ms`);
  }, 600_000);
});
