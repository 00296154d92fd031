/**
 * The order the executor starts ready changes in, and the priority their requests get a free
 * slot with: the longest remaining path first. A change's remaining path is its own cost (one
 * round trip plus what its operation typically waits for on the platform, a fact each kind
 * declares) plus the longest remaining path of its dependents, so the builds and operations that
 * the rest of the plan waits behind start before quick changes nothing waits for. Once a change
 * has sent its first mutation, its wait is under way and its other requests (a rename beside a
 * build) count only for what its dependents have left. Pure.
 */
import type { ChangeOp, PlannedChange } from "../model/planned-change.js";
import type { ExpectedWaits } from "./execution-context.js";

/** One request's share of a change's cost, ms: a round trip to a distant platform. */
const REQUEST_MS = 100;

/** What change `op` typically waits for after its requests, ms. */
function expectedWait(waits: ExpectedWaits | undefined, op: ChangeOp): number {
  const wait = waits?.[op.type] as ((op: ChangeOp) => number) | undefined;
  return wait === undefined ? 0 : wait(op);
}

/** A change's remaining path, ms. */
export interface RemainingPath {
  /** From its start: its own cost and its dependents'. */
  whole: number;
  /** From its first mutation: its dependents' alone. */
  afterMutation: number;
}

/**
 * The remaining path of every change of `plan`; `order` lists every change after its
 * dependencies and `dependents` the changes that depend on each (see `indexDependencies`).
 */
export function remainingPaths(plan: readonly PlannedChange[], graph: { dependents: readonly (readonly number[])[]; order: readonly number[] }, waits: ExpectedWaits | undefined): RemainingPath[] {
  const paths: RemainingPath[] = plan.map(() => ({ whole: 0, afterMutation: 0 }));
  for (let k = graph.order.length - 1; k >= 0; k--) {
    const i = graph.order[k] as number;
    const afterMutation = (graph.dependents[i] ?? []).reduce((longest, d) => Math.max(longest, paths[d]?.whole ?? 0), 0);
    paths[i] = { whole: REQUEST_MS + expectedWait(waits, (plan[i] as PlannedChange).op) + afterMutation, afterMutation };
  }
  return paths;
}

/** Ready changes by their remaining path, longest first; plan order among equals. */
export function byRemainingPath(paths: readonly RemainingPath[]): (a: number, b: number) => number {
  return (a, b) => (paths[b]?.whole ?? 0) - (paths[a]?.whole ?? 0) || a - b;
}
