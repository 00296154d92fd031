import { summarize } from "../diff/diff-state.js";
import { KIND_NAMES, addressOf, isResourceKind } from "../kinds/list.js";
import type { PlannedChange } from "../model/planned-change.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { ConflictReport, EngineWarning } from "../model/plan.js";
import type { PlanSelection } from "../model/plan.js";
import type { SelectionOptions } from "./options.js";
import type { PreparedPlan } from "./prepare-plan.js";

/** A checked selection: both lists present (possibly empty). */
export interface Selection {
  targets: string[];
  exclude: string[];
}

function checkPatterns(option: "targets" | "exclude", value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `Invalid option ${option}: pass an array of address patterns such as ["function.api", "trigger.*"].`, {
      details: { option, value: String(value) },
    });
  }
  return value.map((pattern: unknown, i) => {
    const head = typeof pattern === "string" ? (pattern.split(".")[0] ?? "") : "";
    const ok = typeof pattern === "string" && /^\S+$/.test(pattern) && (head.includes("*") || isResourceKind(head));
    if (!ok) {
      throw new PlatformError(
        ErrorCode.INVALID_OPTIONS,
        `Invalid option ${option}[${i}]: ${JSON.stringify(pattern)} is not an address pattern; start it with a kind (${KIND_NAMES.join(", ")}), e.g. "function.api" or "trigger.*".`,
        { details: { option: `${option}[${i}]`, value: typeof pattern === "string" ? pattern : String(pattern) } },
      );
    }
    return pattern as string;
  });
}

/**
 * Checks the `targets` / `exclude` options before any I/O (`PLATFORM_INVALID_OPTIONS` naming
 * the bad entry). `undefined` when neither narrows the plan.
 */
export function readSelection(options: SelectionOptions): Selection | undefined {
  const targets = checkPatterns("targets", options.targets);
  const exclude = checkPatterns("exclude", options.exclude);
  return targets.length === 0 && exclude.length === 0 ? undefined : { targets, exclude };
}

/** A whole-string matcher for a glob where `*` matches any run of characters (dots and slashes too). */
export function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
}

function matcher(patterns: readonly string[]): (address: string) => boolean {
  const regexes = patterns.map(globRegExp);
  return (address) => regexes.some((r) => r.test(address));
}

/** The plan address a conflict is about (`compute`, `bucket.avatars`, …). */
function conflictAddress(conflict: ConflictReport): string {
  return addressOf(conflict.kind, conflict.identifier);
}

/** The outcome of {@link selectChanges}. */
export interface SelectedChanges {
  /** In plan order; closed under `dependsOn`. */
  changes: PlannedChange[];
  pending: PlannedChange[];
  conflicts: ConflictReport[];
  pendingConflicts: ConflictReport[];
  /** Patterns that matched no change and no conflict. */
  unmatched: { option: "targets" | "exclude"; pattern: string }[];
}

/**
 * Narrows a plan (pure): targets bring in the changes they depend on (transitively); an
 * exclusion then removes the change and every change that depends on it. Conflicts about a
 * selected change's address (or one the patterns select) stay; the rest are pending.
 */
export function selectChanges(plan: readonly PlannedChange[], conflicts: readonly ConflictReport[], selection: Selection): SelectedChanges {
  const isTarget = matcher(selection.targets);
  const isExcluded = matcher(selection.exclude);
  const byId = new Map(plan.map((p) => [p.change.id, p.change]));
  const chosen = new Set<string>();
  const seeds = selection.targets.length === 0 ? plan.map((p) => p.change.id) : plan.filter((p) => isTarget(p.change.address)).map((p) => p.change.id);
  for (let id = seeds.pop(); id !== undefined; id = seeds.pop()) {
    if (chosen.has(id)) continue;
    chosen.add(id);
    seeds.push(...(byId.get(id)?.dependsOn ?? []));
  }
  const dropped = plan.filter((p) => isExcluded(p.change.address)).map((p) => p.change.id);
  for (let id = dropped.pop(); id !== undefined; id = dropped.pop()) {
    if (!chosen.delete(id)) continue;
    dropped.push(...plan.filter((p) => p.change.dependsOn.includes(id)).map((p) => p.change.id));
  }
  const addresses = new Set(plan.filter((p) => chosen.has(p.change.id)).map((p) => p.change.address));
  const inside = (c: ConflictReport): boolean => {
    if (c.changeId !== undefined) return chosen.has(c.changeId);
    const address = conflictAddress(c);
    return addresses.has(address) || ((selection.targets.length === 0 || isTarget(address)) && !isExcluded(address));
  };
  const everything = [...plan.map((p) => p.change.address), ...conflicts.map(conflictAddress)];
  const unmatched = [
    ...selection.targets.filter((p) => !everything.some(matcher([p]))).map((pattern) => ({ option: "targets" as const, pattern })),
    ...selection.exclude.filter((p) => !everything.some(matcher([p]))).map((pattern) => ({ option: "exclude" as const, pattern })),
  ];
  return {
    changes: plan.filter((p) => chosen.has(p.change.id)),
    pending: plan.filter((p) => !chosen.has(p.change.id)),
    conflicts: conflicts.filter(inside),
    pendingConflicts: conflicts.filter((c) => !inside(c)),
    unmatched,
  };
}

/**
 * A prepared plan narrowed to `selection` (unchanged when there is none): its diff holds the
 * selected changes and conflicts, so gating, execution, results and saved plans see only them;
 * `selection` records the rest. A pattern that matches nothing adds a `SELECTION_UNMATCHED` warning.
 */
export function selectPrepared(prepared: PreparedPlan, selection: Selection | undefined): PreparedPlan {
  if (selection === undefined) return prepared;
  const picked = selectChanges(prepared.diff.changes, prepared.diff.conflicts, selection);
  const warnings: EngineWarning[] = picked.unmatched.map((u) => ({
    code: "SELECTION_UNMATCHED",
    message: `${u.option} pattern "${u.pattern}" matches no change or conflict of this plan`,
  }));
  const record: PlanSelection = {
    targets: selection.targets,
    exclude: selection.exclude,
    total: prepared.diff.changes.length,
    pending: picked.pending.map((p) => p.change),
    pendingConflicts: picked.pendingConflicts,
  };
  return {
    ...prepared,
    diff: { ...prepared.diff, changes: picked.changes, conflicts: picked.conflicts, summary: summarize(picked.changes, picked.conflicts.length) },
    warnings: [...prepared.warnings, ...warnings],
    selection: record,
  };
}
