import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { ResourceKind } from "../kinds/index.js";
import type { Change } from "../model/plan.js";
import type { PlannedChange } from "../model/planned-change.js";
import { MinHeap } from "./min-heap.js";

function identifierOf(address: string): string {
  const dot = address.indexOf(".");
  return dot === -1 ? address : address.slice(dot + 1);
}

/** A kind's rank: its position in the registry. */
export type KindRank = (kind: ResourceKind) => number;

/** Tie-break among ready changes: kind by `rankOf`, then deletes first, then identifier (code points). */
export function compareChanges(a: PlannedChange, b: PlannedChange, rankOf: KindRank): number {
  const kind = rankOf(a.change.kind) - rankOf(b.change.kind);
  if (kind !== 0) return kind;
  const del = Number(b.change.action === "delete") - Number(a.change.action === "delete");
  if (del !== 0) return del;
  const ia = identifierOf(a.change.address);
  const ib = identifierOf(b.change.address);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/** The dependency graph of a list of changes, by position in that list. */
export interface DependencyGraph {
  /** Positions of the changes that depend on each change. */
  dependents: number[][];
  /** Number of dependencies of each change (unknown ids dropped or rejected, see {@link indexDependencies}). */
  indegree: number[];
  /** Every change once, each after all of its dependencies. */
  order: number[];
}

function invalidGraph(message: string, ids: string[]): PlatformError {
  return new PlatformError(ErrorCode.INVALID_OPTIONS, `${message}; this is a bug in svc-config or an edited plan, please report it`, {
    details: { option: "plan", value: ids },
  });
}

/**
 * Indexes `dependsOn` in O(changes + edges). A dependency on an id that is not in the list is
 * dropped with `unknown: "drop"` and is a `PlatformError` naming both ids with `"reject"`; a
 * cycle (or a change behind one) is a `PlatformError` listing the stuck ids, never a hang.
 */
export function indexDependencies(changes: readonly Pick<Change, "id" | "dependsOn">[], unknown: "drop" | "reject"): DependencyGraph {
  const position = new Map<string, number>();
  changes.forEach((c, i) => {
    position.set(c.id, i);
  });
  const dependents: number[][] = changes.map(() => []);
  const indegree: number[] = changes.map(() => 0);
  changes.forEach((c, i) => {
    for (const dep of new Set(c.dependsOn)) {
      const at = position.get(dep);
      if (at === undefined) {
        if (unknown === "reject") throw invalidGraph(`change ${c.id} depends on ${dep}, which is not in the plan`, [c.id, dep]);
        continue;
      }
      dependents[at]?.push(i);
      indegree[i] = (indegree[i] ?? 0) + 1;
    }
  });
  const remaining = [...indegree];
  const queue = remaining.flatMap((d, i) => (d === 0 ? [i] : []));
  let seen = 0;
  while (seen < queue.length) {
    const next = queue[seen++] as number;
    for (const d of dependents[next] ?? []) {
      remaining[d] = (remaining[d] ?? 0) - 1;
      if (remaining[d] === 0) queue.push(d);
    }
  }
  if (queue.length < changes.length) {
    const stuck = changes.filter((_, i) => (remaining[i] ?? 0) > 0).map((c) => c.id).sort();
    throw invalidGraph(`the plan has a dependency cycle among ${stuck.join(", ")}`, stuck);
  }
  return { dependents, indegree, order: queue };
}

/**
 * Orders changes topologically over `dependsOn` with the tie-breaks of {@link compareChanges}
 * (kinds ranked by `rankOf`), in O(N log N + edges). Unknown dependency ids are dropped. A cycle
 * is reported as a `PlatformError`, never a hang.
 */
export function orderChanges(changes: readonly PlannedChange[], rankOf: KindRank): PlannedChange[] {
  const { dependents, indegree } = indexDependencies(changes.map((c) => c.change), "drop");
  const ready = new MinHeap<number>((a, b) => compareChanges(changes[a] as PlannedChange, changes[b] as PlannedChange, rankOf) || a - b);
  indegree.forEach((d, i) => {
    if (d === 0) ready.push(i);
  });
  const ordered: PlannedChange[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    ordered.push(changes[next] as PlannedChange);
    for (const d of dependents[next] ?? []) {
      indegree[d] = (indegree[d] ?? 0) - 1;
      if (indegree[d] === 0) ready.push(d);
    }
  }
  return ordered;
}
