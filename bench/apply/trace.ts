/**
 * A trace of one `wide` apply (`npm run bench:trace`, by hand): when each change started and
 * ended, next to the earliest it could have started (its last dependency's end) and its cost in
 * the lower bound, then every request. It shows where an apply loses time against its critical
 * path: a change that starts well after it could ("late": its dependencies' end, or the start of
 * execution) or takes well over its cost ("over") waited for request slots held by other changes, or for a
 * poll; then the chains that ended last (which of the plan's chains decided the end, and by how
 * much). Prints text; asserts nothing.
 *
 *   tsx bench/apply/trace.ts [latencyMs]
 */
import { startEmulator } from "../../src/emulator/index.js";
import { apply, createPlatformApi, plan, type EngineEvent } from "../../src/v1.js";
import { changeCost, type PlatformCosts } from "./lower-bound.js";
import { BENCH_API_KEY, BENCH_FINGERPRINT_KEY, BENCH_TIMINGS } from "./measurement.js";
import { createServerRecorder } from "./request-recorder.js";
import { BENCH_BASE_DIR, warmUpPolicy, widePolicy } from "./scenarios.js";

/**
 * For every change nothing depends on, the chain that ended it: back from it through the
 * dependency that ended last, to a change without dependencies. The latest chain per kind of root
 * (`create:function`, `update:compute`, …), latest first: which chain decided the apply's end, and
 * how close the others came.
 */
function lastChains(changes: readonly { id: string; dependsOn: readonly string[] }[], spans: ReadonlyMap<string, { end: number }>): { end: number; path: string[] }[] {
  const endOf = (id: string): number => spans.get(id)?.end ?? Number.NEGATIVE_INFINITY;
  const byId = new Map(changes.map((c) => [c.id, c]));
  const dependedOn = new Set(changes.flatMap((c) => c.dependsOn));
  const latestByRootKind = new Map<string, { end: number; path: string[] }>();
  for (const leaf of changes.filter((c) => !dependedOn.has(c.id))) {
    const path = [leaf.id];
    for (let c = byId.get(leaf.id); c !== undefined && c.dependsOn.length > 0; ) {
      const last = c.dependsOn.reduce((a, b) => (endOf(b) > endOf(a) ? b : a));
      path.unshift(last);
      c = byId.get(last);
    }
    const rootKind = (path[0] as string).replace(/\..*$/, "");
    const end = endOf(leaf.id);
    if ((latestByRootKind.get(rootKind)?.end ?? Number.NEGATIVE_INFINITY) < end) latestByRootKind.set(rootKind, { end, path });
  }
  return [...latestByRootKind.values()].sort((a, b) => b.end - a.end);
}

const latencyMs = Number(process.argv[2] ?? "40");
const recorder = createServerRecorder();
const emu = await startEmulator({ latencyMs, timings: BENCH_TIMINGS, idSeed: 1, apiKey: BENCH_API_KEY, log: recorder.log });
try {
  const origin = performance.now();
  const spans = new Map<string, { start: number; end: number }>();
  let executionStart = Number.NaN;
  const onEvent = (event: EngineEvent): void => {
    const at = performance.now() - origin;
    if (event.type === "plan") executionStart = at;
    if (event.type !== "change") return;
    if (event.phase === "start") spans.set(event.id, { start: at, end: Number.NaN });
    else {
      const span = spans.get(event.id);
      if (span !== undefined) span.end = at;
    }
  };
  const api = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
  const options = { api, projectId: emu.projectId, branchId: emu.defaultBranchId, baseDir: BENCH_BASE_DIR, fingerprintKey: BENCH_FINGERPRINT_KEY };
  await plan(warmUpPolicy(), options);
  recorder.clear();
  const shift = performance.now() - origin;
  const result = await apply(widePolicy(), { ...options, updateExisting: true, onEvent });
  const wall = performance.now() - origin - shift;
  const costs: PlatformCosts = { latencyMs, operationMs: BENCH_TIMINGS.opSchedulingMs + BENCH_TIMINGS.opRunMs, buildMs: BENCH_TIMINGS.deployPendingMs + BENCH_TIMINGS.deployBuildMs };
  const t = (ms: number): string => `${(ms - shift).toFixed(0).padStart(5)}`;
  process.stdout.write(`wide apply ${wall.toFixed(0)} ms, ${result.changes.length} changes, ${recorder.requests.length} requests; changes could start at ${t(executionStart)} ms\n`);
  process.stdout.write(" start   end  ready  late  cost  over  change\n");
  const rows = result.changes.map((change) => {
    const span = spans.get(change.id) ?? { start: Number.NaN, end: Number.NaN };
    const ready = change.dependsOn.reduce((max, dep) => Math.max(max, spans.get(dep)?.end ?? executionStart), executionStart);
    return { change, span, ready };
  });
  rows.sort((a, b) => a.span.start - b.span.start);
  for (const { change, span, ready } of rows) {
    process.stdout.write(`${t(span.start)} ${t(span.end)} ${t(ready)} ${(span.start - ready).toFixed(0).padStart(5)} ${String(changeCost(change, costs)).padStart(5)} ${(span.end - span.start - changeCost(change, costs)).toFixed(0).padStart(5)}  ${change.id}${change.dependsOn.length > 0 ? ` <- ${change.dependsOn.join(", ")}` : ""}\n`);
  }
  process.stdout.write("\nthe latest chain per kind of root (back through the dependency that ended last):\n");
  for (const chain of lastChains(result.changes, spans)) {
    process.stdout.write(`${t(chain.end)}  ${chain.path.map((id) => `${id} (${t(spans.get(id)?.end ?? Number.NaN).trim()})`).join(" -> ")}\n`);
  }
  process.stdout.write("\nrequests (ms since the apply began):\n");
  const recorderShift = recorder.requests.reduce((min, r) => Math.min(min, r.start), Number.POSITIVE_INFINITY);
  for (const r of recorder.requests) process.stdout.write(`${(r.start - recorderShift).toFixed(0).padStart(5)} ${(r.end - recorderShift).toFixed(0).padStart(5)} ${r.method} ${r.path} ${r.status}\n`);
} finally {
  await emu.close();
}
