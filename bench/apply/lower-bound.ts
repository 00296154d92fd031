/**
 * The lower bound the bench compares the engine with: no client can finish faster than the
 * reads it needs plus the critical path of the plan's dependency graph, where each change costs
 * its unavoidable round trips (each one injected latency) and the operation or build it waits for.
 * CPU work (bundling, fingerprints) is not counted: the bound is what the network and the
 * platform impose.
 */
import type { Change } from "../../src/v1.js";

/** What one round trip and one wait cost on the emulator the bench starts. */
export interface PlatformCosts {
  /** Injected latency per request, ms. */
  latencyMs: number;
  /** A control-plane operation from request to `finished` (scheduling + run), ms. */
  operationMs: number;
  /** A function build from upload to `completed` (pending + build), ms. */
  buildMs: number;
}

/**
 * Sequential read waves a plan needs at least: the project, branch and endpoints can be read
 * together, then the listings the closure asks for (waves 1 and 2 may merge).
 */
export const MIN_READ_WAVES = 2;

/** A request followed by a wait: the confirming poll can be sent early, so it costs max(latency, wait). */
function requestThenWait(costs: PlatformCosts, waitMs: number): number {
  return costs.latencyMs + Math.max(costs.latencyMs, waitMs);
}

/** The least time one change can take on its own, ms. */
export function changeCost(change: Pick<Change, "kind" | "action" | "fields">, costs: PlatformCosts): number {
  const L = costs.latencyMs;
  switch (change.kind) {
    case "branch":
    case "compute":
      return requestThenWait(costs, costs.operationMs);
    case "function": {
      if (change.action === "delete") return L;
      const deploys = change.action === "create" || change.fields.some((f) => f !== "name");
      const renames = change.action === "update" && change.fields.includes("name");
      return (deploys ? requestThenWait(costs, costs.buildMs) : 0) + (renames ? L : 0);
    }
    case "domain":
      return change.action === "replace" ? 3 * L : L;
    default:
      return L;
  }
}

/** The longest chain of `dependsOn` weighted by {@link changeCost}, ms (0 for an empty plan). */
export function criticalPathMs(changes: readonly Change[], costs: PlatformCosts): number {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const finish = new Map<string, number>();
  const visit = (change: Change, trail: Set<string>): number => {
    const known = finish.get(change.id);
    if (known !== undefined) return known;
    if (trail.has(change.id)) throw new Error(`the plan's dependsOn has a cycle through ${change.id}`);
    trail.add(change.id);
    let ready = 0;
    for (const dep of change.dependsOn) {
      const before = byId.get(dep);
      if (before !== undefined) ready = Math.max(ready, visit(before, trail));
    }
    trail.delete(change.id);
    const done = ready + changeCost(change, costs);
    finish.set(change.id, done);
    return done;
  };
  return changes.reduce((longest, c) => Math.max(longest, visit(c, new Set())), 0);
}

/** Lower bounds of a plan and of its apply, ms. */
export function lowerBounds(changes: readonly Change[], costs: PlatformCosts): { planMs: number; applyMs: number } {
  const reads = MIN_READ_WAVES * costs.latencyMs;
  return { planMs: reads, applyMs: reads + criticalPathMs(changes, costs) };
}
