import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { ResourceKind } from "../model/plan.js";
import type { PlannedChange } from "./plan-types.js";

const KIND_RANK: Record<ResourceKind, number> = {
  branch: 0, compute: 1, auth: 2, dataApi: 3, bucket: 4, function: 5, trigger: 6, domain: 7,
};

function identifierOf(address: string): string {
  const dot = address.indexOf(".");
  return dot === -1 ? address : address.slice(dot + 1);
}

/** Tie-break among ready changes: kind, then deletes first, then identifier (code points). */
export function compareChanges(a: PlannedChange, b: PlannedChange): number {
  const kind = KIND_RANK[a.change.kind] - KIND_RANK[b.change.kind];
  if (kind !== 0) return kind;
  const del = Number(b.change.action === "delete") - Number(a.change.action === "delete");
  if (del !== 0) return del;
  const ia = identifierOf(a.change.address);
  const ib = identifierOf(b.change.address);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/**
 * Orders changes topologically over `dependsOn` with the tie-breaks of {@link compareChanges}.
 * Unknown dependency ids are dropped. A cycle is reported as a `PlatformError`, never a hang.
 */
export function orderChanges(changes: readonly PlannedChange[]): PlannedChange[] {
  const byId = new Map(changes.map((c) => [c.change.id, c]));
  const pending = new Map<string, Set<string>>();
  for (const c of changes) pending.set(c.change.id, new Set(c.change.dependsOn.filter((d) => byId.has(d))));
  const ordered: PlannedChange[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter(([, deps]) => deps.size === 0).map(([id]) => byId.get(id) as PlannedChange);
    if (ready.length === 0) {
      const stuck = [...pending.keys()].sort();
      throw new PlatformError(ErrorCode.INVALID_OPTIONS, `the plan has a dependency cycle among ${stuck.join(", ")}; this is a bug in svc-config, please report it`, {
        details: { option: "plan", value: stuck },
      });
    }
    ready.sort(compareChanges);
    const next = ready[0] as PlannedChange;
    ordered.push(next);
    pending.delete(next.change.id);
    for (const deps of pending.values()) deps.delete(next.change.id);
  }
  return ordered;
}
