/**
 * Fleet and verification benchmark (`npm run bench:plans`, run by hand; not part of the tests
 * or CI; it prints figures and asserts nothing). Against an in-process emulator:
 *
 * 1. The cost of `verify` on one branch of a `mix`-50 policy: plan alone and plan with
 *    `verify: true`, interleaved, best of 5 each, and their ratio.
 * 2. The cost of four policy checks on a 1,000-resource plan.
 * 3. A fleet of 200 branches × `mix`-50: `planFleet` of the fresh branches, `applyFleet`, then the
 *    converged `planFleet`; for each, wall time, requests in all and per branch, and the longest
 *    chain of sequential requests (waves) a branch saw.
 * 4. The verified fleet: `planFleet` with `verify` of the fresh branches, against the same
 *    `planFleet` without it, interleaved, best of 3 each; how many branches verified.
 * 5. `verify` without a fingerprint key (hardened mode) on the same branch: plan alone and plan
 *    with `verify: true`, interleaved, best of 5 each, each run with env values the process has
 *    not seen (a process derives each value once), and their ratio.
 *
 * The machine's load average is printed before and after: the machine is shared, so figures
 * move with what else runs on it.
 *
 * It runs the built package (`dist/`), as an installed one runs: build first.
 *
 *   npm run build && npm run bench:plans [-- --branches 200] [--size 50] [--only verify,verify-hardened,checks,fleet,fleet-verify]
 */
import { availableParallelism, cpus, loadavg } from "node:os";
import { createPlatformApi, defineCheck, defineConfig, plan, planFleet, applyFleet, type PolicyConfig, type FleetResult } from "../../dist/v1.js";
import { startEmulator, type SeedDocument } from "../../dist/emulator/index.js";
import { createRequestRecorder, sequentialWaves, type RecordedRequest } from "../apply/request-recorder.js";
import { BENCH_BASE_DIR } from "../apply/scenarios.js";

function argNumber(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const BRANCHES = argNumber("--branches", 200);
const SIZE = argNumber("--size", 50);
/** The parts to run (`--only verify,checks`); all of them by default. */
const ONLY = new Set((process.argv[process.argv.indexOf("--only") + 1] ?? "").split(","));
const runs = (part: "verify" | "verify-hardened" | "checks" | "fleet" | "fleet-verify"): boolean => !process.argv.includes("--only") || ONLY.has(part);
const KEY = "svc_bench_plans_key_0000000000000001";
const FINGERPRINT_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const TIMINGS = { opSchedulingMs: 0, opRunMs: 5, deployPendingMs: 0, deployBuildMs: 5, domainActivationMs: 0 };
const POLLING = { initialMs: 5, maxMs: 50 };

/**
 * `mix`-N: half functions (the prebuilt `fixtures/bench/fn`), a fifth buckets, the rest triggers
 * (schedule and storage, alternating), and a per-branch closure (protected main, a compute
 * setting elsewhere). No custom domains: a hostname belongs to one branch of the account. Each
 * function's env holds its index, and `round` when given (new values for a hardened run).
 */
function mixPolicy(size: number, round?: number): PolicyConfig {
  const fnCount = Math.max(1, Math.floor(size / 2));
  const bucketCount = Math.max(1, Math.floor(size / 5));
  const triggerCount = Math.max(0, size - fnCount - bucketCount);
  const functions: NonNullable<PolicyConfig["functions"]> = {};
  const buckets: NonNullable<PolicyConfig["buckets"]> = {};
  const triggers: NonNullable<PolicyConfig["triggers"]> = {};
  for (let i = 0; i < fnCount; i++) functions[`fn${i}`] = { name: `Function ${i}`, source: "./fn", bundler: "none", env: { INDEX: round === undefined ? String(i) : `${i}.${round}` } };
  for (let i = 0; i < bucketCount; i++) buckets[`bucket-${i}`] = { access: "private" };
  for (let i = 0; i < triggerCount; i++) {
    triggers[`t${i}`] = i % 2 === 0
      ? { type: "schedule", function: `fn${i % fnCount}`, cron: `${i % 60} * * * *` }
      : { type: "storage_object_created", function: `fn${i % fnCount}`, bucket: `bucket-${i % bucketCount}`, prefix: "in/" };
  }
  return defineConfig({ buckets, functions, triggers, branch: (t) => (t.isDefault ? { protected: true } : { postgres: { computeSettings: { suspendTimeout: "10m" } } }) });
}

function seed(branches: number): SeedDocument {
  const branch = (name: string, extra: object) => ({ name, endpoints: [{ type: "read_write" as const }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }], ...extra });
  return {
    version: 1,
    users: [{ email: "bench@example.test", plan: "scale", api_keys: [{ name: "bench", key: KEY, admin: true }] }],
    projects: [{ owner: "bench@example.test", name: "bench", branches: [branch("main", { default: true }), ...Array.from({ length: branches - 1 }, (_, i) => branch(`preview/${String(i + 1).padStart(3, "0")}`, { parent: "main" }))] }],
  };
}

const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");

/** Per branch: requests and sequential waves, from the recorded requests (the branch id is in the path). */
function perBranch(requests: readonly RecordedRequest[], fleet: FleetResult): { requests: number[]; waves: number[] } {
  const byBranch = new Map<string, RecordedRequest[]>(fleet.branches.map((b) => [b.branchId, []]));
  for (const r of requests) {
    const id = /\/branches\/([^/]+)/.exec(r.path)?.[1];
    if (id !== undefined) byBranch.get(id)?.push(r);
  }
  const lists = [...byBranch.values()];
  return { requests: lists.map((l) => l.length), waves: lists.map((l) => sequentialWaves(l)) };
}

function stats(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return `mean ${mean.toFixed(1)}, min ${sorted[0] ?? 0}, max ${sorted.at(-1) ?? 0}`;
}

async function main(): Promise<void> {
  console.log(`bench:plans — ${BRANCHES} branches × mix-${SIZE}; ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "?"}); load average ${load()}`);
  const emu = await startEmulator({ seed: seed(BRANCHES), apiKey: KEY, timings: TIMINGS });
  const policy = mixPolicy(SIZE);
  const base = { projectId: emu.projectId, baseDir: BENCH_BASE_DIR, fingerprintKey: FINGERPRINT_KEY, polling: POLLING };
  try {
    const one = { ...base, branchId: emu.defaultBranchId, api: createPlatformApi({ apiKey: KEY, apiHost: emu.apiHost, polling: POLLING }) };
    await plan(policy, one); // warm-up: module loading and archives
    if (runs("verify")) await benchVerify(policy, one);
    if (runs("verify-hardened")) await benchVerifyHardened(one);
    if (runs("checks")) await benchChecks(one);
    if (runs("fleet-verify")) await benchFleetVerify(policy, base, emu.apiHost);
    if (runs("fleet")) await benchFleet(policy, base, emu.apiHost);
    console.log(`\nload average after: ${load()}`);
  } finally {
    await emu.close();
  }
}

type PlanOptions = Parameters<typeof plan>[1];

/**
 * 1. The cost of verify on one fresh branch: plan alone and plan with `verify`, interleaved
 * (A, B, A, B, …) so both see the same load; best of 5 each. Each run's times are printed too:
 * the process's first verification builds the replica and runs cold, so the best verified run
 * is usually one of the last, and a garbage collection or a preemption in one run shows there.
 */
async function benchVerify(policy: PolicyConfig, one: PlanOptions): Promise<void> {
  let alone = Number.POSITIVE_INFINITY;
  let verified = { ms: Number.POSITIVE_INFINITY, verified: false, verifyMs: 0 };
  const runs: { alone: number; verified: number; verifyMs: number }[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    await plan(policy, one);
    const aloneMs = performance.now() - t;
    alone = Math.min(alone, aloneMs);
    t = performance.now();
    const r = await plan(policy, { ...one, verify: true });
    const took = performance.now() - t;
    runs.push({ alone: aloneMs, verified: took, verifyMs: r.verification?.ms ?? 0 });
    if (took < verified.ms) verified = { ms: took, verified: r.verification?.verified === true, verifyMs: r.verification?.ms ?? 0 };
  }
  const each = (pick: (run: (typeof runs)[number]) => number): string => runs.map((run) => Math.round(pick(run))).join(", ");
  console.log(`\nverify (1 branch, mix-${SIZE}, ${SIZE} changes; interleaved, best of 5; load average ${load()})`);
  console.log(`  plan alone            ${ms(alone)}`);
  console.log(`  plan --verify         ${ms(verified.ms)}  (verified: ${String(verified.verified)}; verification itself ${ms(verified.verifyMs)})`);
  console.log(`  ratio                 ${(verified.ms / alone).toFixed(2)}×  (target ≤ 2×)`);
  console.log(`  each run, ms          plan alone ${each((run) => run.alone)}; plan --verify ${each((run) => run.verified)}; verification itself ${each((run) => run.verifyMs)}`);
}

/**
 * 5. The cost of verify without a fingerprint key: as 1, but every function's env value is new to
 * the process in each run (keys are derived once per process and value), so each run pays what a
 * fresh `svc config plan --verify` pays.
 */
async function benchVerifyHardened(one: PlanOptions): Promise<void> {
  const { fingerprintKey: _key, ...keyless } = one;
  let alone = Number.POSITIVE_INFINITY;
  let verified = { ms: Number.POSITIVE_INFINITY, verified: false, verifyMs: 0 };
  let round = 0;
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    await plan(mixPolicy(SIZE, round++), keyless);
    alone = Math.min(alone, performance.now() - t);
    t = performance.now();
    const r = await plan(mixPolicy(SIZE, round++), { ...keyless, verify: true });
    const took = performance.now() - t;
    if (took < verified.ms) verified = { ms: took, verified: r.verification?.verified === true, verifyMs: r.verification?.ms ?? 0 };
  }
  console.log(`\nverify, hardened (1 branch, mix-${SIZE}, no fingerprint key, new env values each run; interleaved, best of 5; load average ${load()})`);
  console.log(`  plan alone            ${ms(alone)}`);
  console.log(`  plan --verify         ${ms(verified.ms)}  (verified: ${String(verified.verified)}; verification itself ${ms(verified.verifyMs)})`);
  console.log(`  ratio                 ${(verified.ms / alone).toFixed(2)}×  (no target)`);
}

/** 2. The cost of policy checks on a 1,000-resource plan (four checks: two per change, two per plan). */
async function benchChecks(one: PlanOptions): Promise<void> {
  const big = mixPolicy(1000);
  const checks = [
    defineCheck({ name: "no-public-bucket", enforcement: "mandatory", validateChange: (c, ctx) => { if (c.kind === "bucket" && ctx.target.isDefault) ctx.report("bucket"); } }),
    defineCheck({ name: "destructive", enforcement: "advisory", validateChange: (c, ctx) => { if (c.class === "destructive") ctx.report("destructive"); } }),
    defineCheck({ name: "compute-max", enforcement: "advisory", validatePlan: (_p, ctx) => { if ((ctx.policy.branch.compute?.maxCu ?? 0) > 2) ctx.report("compute"); } }),
    defineCheck({ name: "count", enforcement: "advisory", validatePlan: (p, ctx) => { if (p.changes.length > 5_000) ctx.report("large"); } }),
  ];
  await plan(big, one); // warm-up
  const timed = async (withChecks: boolean): Promise<{ ms: number; changes: number }> => {
    let out = { ms: Number.POSITIVE_INFINITY, changes: 0 };
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const r = await plan(big, { ...one, ...(withChecks ? { checks } : {}) });
      const took = performance.now() - t;
      if (took < out.ms) out = { ms: took, changes: r.changes.length };
    }
    return out;
  };
  const unchecked = await timed(false);
  const checked = await timed(true);
  console.log(`\nchecks (1 branch, mix-1000, ${checked.changes} changes, 4 checks; best of 3; load average ${load()})`);
  console.log(`  plan alone            ${ms(unchecked.ms)}`);
  console.log(`  plan with checks      ${ms(checked.ms)}`);
  console.log(`  checks cost           ${ms(Math.max(0, checked.ms - unchecked.ms))} (ratio ${(checked.ms / unchecked.ms).toFixed(2)}×)`);
}

/**
 * 4. The cost of verifying a fleet: `planFleet` of the fresh branches with and without `verify`,
 * interleaved so both see the same load; best of 3 each. Runs before the fleet is applied.
 */
async function benchFleetVerify(policy: PolicyConfig, base: Omit<PlanOptions, "branchId" | "api">, apiHost: string): Promise<void> {
  const api = createPlatformApi({ apiKey: KEY, apiHost, polling: POLLING });
  const options = { ...base, api, branches: "all", concurrency: 16 };
  let alone = Number.POSITIVE_INFINITY;
  let verified = { ms: Number.POSITIVE_INFINITY, verified: 0, branches: 0 };
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    await planFleet(policy, options);
    alone = Math.min(alone, performance.now() - t);
    t = performance.now();
    const fleet = await planFleet(policy, { ...options, verify: true });
    const took = performance.now() - t;
    if (took < verified.ms) verified = { ms: took, verified: fleet.branches.filter((b) => b.result?.verification?.verified === true).length, branches: fleet.branches.length };
  }
  console.log(`\nverified fleet (${BRANCHES} branches, mix-${SIZE}, fresh; interleaved, best of 3; load average ${load()})`);
  console.log(`  planFleet             ${ms(alone)}`);
  console.log(`  planFleet --verify    ${ms(verified.ms)}  (${verified.verified} of ${verified.branches} branches verified)`);
  console.log(`  ratio                 ${(verified.ms / alone).toFixed(2)}×`);
}

/** 3. The fleet: `planFleet` of the fresh branches, `applyFleet`, then the converged `planFleet`. */
async function benchFleet(policy: PolicyConfig, base: Omit<PlanOptions, "branchId" | "api">, apiHost: string): Promise<void> {
  console.log(`\nfleet (${BRANCHES} branches, concurrency budget 16; load average ${load()})`);
  for (const [label, run] of [
    ["planFleet, fresh", (o: Parameters<typeof planFleet>[1]) => planFleet(policy, o)],
    ["applyFleet", (o: Parameters<typeof planFleet>[1]) => applyFleet(policy, { ...o, updateExisting: true, allowProtectedBranch: true })],
    ["planFleet, converged", (o: Parameters<typeof planFleet>[1]) => planFleet(policy, o)],
  ] as const) {
    const recorder = createRequestRecorder();
    const api = createPlatformApi({ apiKey: KEY, apiHost, polling: POLLING, fetch: recorder.fetch });
    const t = performance.now();
    const fleet = await run({ ...base, api, branches: "all", concurrency: 16 });
    const took = performance.now() - t;
    const failed = fleet.branches.filter((b) => b.error !== undefined).length;
    const changes = fleet.branches.reduce((s, b) => s + (b.result?.changes.length ?? 0), 0);
    const { requests, waves } = perBranch(recorder.requests, fleet);
    const target = label === "planFleet, converged" ? ` (target ≤ 5 s for 200 branches; load average ${load()})` : "";
    console.log(`  ${label.padEnd(22)} ${ms(took).padStart(8)}  ${recorder.requests.length} requests; per branch ${stats(requests)}; waves per branch ${stats(waves)}; ${changes} changes; ${failed} failed${target}`);
  }
}

await main();
