/**
 * What is shown is what runs: a saved plan is applied only when a fresh plan of the branch and
 * the policy equals it in every field a view shows (the target, each change's address, action,
 * class, fields, before, after, reason and order, the conflicts, unmanaged entries and summary;
 * every current warning must have been shown) and in what no view shows but the run sends (each change's digest: env values
 * are there only as hardened tags). Pure: it compares two plain documents and names what
 * differs, never a value.
 */
import { canonicalJson } from "../diff/canonical-json.js";
import { KIND_MODULES } from "../kinds/modules.js";
import type { Change, ConflictReport, EngineWarning, PlanSummary, UnmanagedEntry } from "../model/plan.js";

/** One difference between a saved plan and the fresh plan, for people: what, never a value. */
export interface PlanDifference {
  /** `change function.api`, `conflict bucket.media`, `summary`, `branchName`, … */
  item: string;
  /** What differs: field names, or what happened to the item. */
  what: string;
}

/** The part of a (saved or fresh) plan the comparison reads: every field a view shows, and the digests. */
export interface ComparedPlan {
  projectId: string;
  branchId: string;
  branchName: string;
  changes: readonly Change[];
  conflicts: readonly ConflictReport[];
  unmanaged: readonly UnmanagedEntry[];
  warnings: readonly EngineWarning[];
  summary: PlanSummary;
  changesDigest: string;
  changeDigests?: Readonly<Record<string, string>>;
}

/** The fields of a change a view shows, compared one by one. */
const CHANGE_FIELDS = ["kind", "action", "class", "fields", "before", "after", "reason", "dependsOn"] as const;

/**
 * Every difference between `saved` (as read from its file: any shape) and `fresh`, in document
 * order; empty when the saved plan is exactly what would run now.
 */
export function savedPlanDifferences(saved: unknown, fresh: ComparedPlan): PlanDifference[] {
  const doc = isRecord(saved) ? saved : {};
  const out: PlanDifference[] = [];
  for (const key of ["projectId", "branchId", "branchName"] as const) {
    if (!same(doc[key], fresh[key])) out.push({ item: key, what: "differs from the branch" });
  }
  out.push(...changeDifferences(doc, fresh));
  out.push(...listDifferences("conflict", doc.conflicts, fresh.conflicts, (c) => `${c.kind} ${c.identifier} ${c.code}`));
  out.push(...listDifferences("unmanaged", doc.unmanaged, fresh.unmanaged, (u) => u.address));
  // A warning the saved plan lacks was never shown; one that no longer applies (a build that
  // finished since) is no reason to refuse.
  out.push(...listDifferences("warning", doc.warnings, fresh.warnings, (w) => `${w.code}${w.address === undefined ? "" : ` ${w.address}`}`).filter((d) => d.what.startsWith("is in the fresh")));
  if (!same(doc.summary, fresh.summary)) out.push({ item: "summary", what: "differs from the changes and conflicts" });
  return out;
}

function changeDifferences(doc: Record<string, unknown>, fresh: ComparedPlan): PlanDifference[] {
  const saved = Array.isArray(doc.changes) ? doc.changes.filter(isRecord) : [];
  const savedDigests = isRecord(doc.changeDigests) ? doc.changeDigests : undefined;
  const out: PlanDifference[] = [];
  const byAddress = new Map(fresh.changes.map((c) => [c.address, c]));
  const savedAddresses = new Set<string>();
  for (const change of saved) {
    const address = typeof change.address === "string" ? change.address : String(change.id);
    savedAddresses.add(address);
    const now = byAddress.get(address);
    if (now === undefined) {
      out.push({ item: `change ${address}`, what: "is in the saved plan but no longer planned" });
      continue;
    }
    const fields = [...(change.id === now.id ? [] : ["id"]), ...CHANGE_FIELDS.filter((field) => !same(change[field], now[field]))];
    if (fields.length > 0) out.push({ item: `change ${address}`, what: `${fields.join(", ")} ${fields.length === 1 ? "differs" : "differ"}` });
    else if (savedDigests !== undefined && fresh.changeDigests !== undefined && !sameDigest(savedDigests, fresh.changeDigests, now.id)) {
      out.push({ item: `change ${address}`, what: hiddenWhat(now) });
    }
  }
  for (const change of fresh.changes) {
    if (!savedAddresses.has(change.address)) out.push({ item: `change ${change.address}`, what: "is planned now but not in the saved plan" });
  }
  const order = (list: readonly { address?: unknown }[]): string => list.map((c) => String(c.address)).join("\u0000");
  if (out.length === 0 && order(saved) !== order(fresh.changes)) out.push({ item: "changes", what: "are in another order" });
  // A plan saved without per-change digests still carries the digest of the whole list.
  if (out.length === 0 && !same(doc.changesDigest, fresh.changesDigest)) {
    out.push({ item: "changes", what: "differ in what the plan does not show (an env value, or a deployment marker)" });
  }
  return out;
}

function sameDigest(saved: Readonly<Record<string, unknown>>, fresh: Readonly<Record<string, string>>, id: string): boolean {
  return Object.hasOwn(saved, id) && Object.hasOwn(fresh, id) && saved[id] === fresh[id];
}

/** What differs when only a change's digest does: what its kind says its digests hold that no view shows. */
function hiddenWhat(change: Change): string {
  return KIND_MODULES.find((kind) => kind.name === change.kind)?.result?.hiddenDifference ?? "differs in what the plan does not show";
}

function listDifferences<T extends object>(kind: string, savedList: unknown, freshList: readonly T[], label: (item: T) => string): PlanDifference[] {
  const saved = Array.isArray(savedList) ? savedList : [];
  const out: PlanDifference[] = [];
  const remaining = [...freshList];
  for (const item of saved) {
    const index = remaining.findIndex((candidate) => same(candidate, item));
    if (index >= 0) remaining.splice(index, 1);
    else out.push({ item: `${kind} ${isRecord(item) ? safeLabel(() => label(item as T)) : "(malformed)"}`, what: "is in the saved plan but not in the fresh one" });
  }
  for (const item of remaining) out.push({ item: `${kind} ${label(item)}`, what: "is in the fresh plan but not in the saved one" });
  return out;
}

function safeLabel(read: () => string): string {
  try {
    return read();
  } catch {
    return "(malformed)";
  }
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
