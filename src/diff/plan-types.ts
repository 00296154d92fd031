import type { ResourceKind } from "../kinds/index.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { ConflictReport, EngineWarning, PlanSummary, UnmanagedEntry } from "../model/plan.js";
import type { FunctionTag, PlannedChange } from "../model/planned-change.js";

/** Inputs of the pure diff besides the two states. */
export interface DiffOptions {
  /** The clock, as a parameter: TTL checks compare against it. */
  now: Date;
  /** Fingerprint per declared function slug. */
  functionTags: ReadonlyMap<string, FunctionTag>;
  /** Permits deleting buckets that hold objects (a destructive change). @default false */
  allowDataLoss: boolean;
  /** Kinds whose read answered feature-unavailable, with the platform's reason. */
  unavailable?: Partial<Record<ResourceKind, string>>;
  /**
   * `false`: the result's `stateFingerprint` is left empty, for a caller that reads only the
   * changes and conflicts (a verification's plan of its replica). @default true
   */
  stateFingerprint?: boolean;
}

/** The outcome of {@link diffState}: an ordered plan plus everything reported beside it. */
export interface DiffResult {
  /** Topologically ordered. */
  changes: PlannedChange[];
  conflicts: ConflictReport[];
  unmanaged: UnmanagedEntry[];
  warnings: EngineWarning[];
  /** `sha256:<hex>` of the compared projection of the live state; `""` when the options asked for none. */
  stateFingerprint: string;
  summary: PlanSummary;
}

/** Accumulates what the per-kind diffs produce. */
export interface DiffSink {
  changes: PlannedChange[];
  conflicts: ConflictReport[];
  unmanaged: UnmanagedEntry[];
  warnings: EngineWarning[];
}

/** One kind's part of the diff: its creates and updates, and the deletes prune plans. */
export interface KindDiff {
  /** Creates and updates (and conflicts) of the kind's declared resources. */
  diff(desired: ResolvedPolicy, live: LiveState, options: DiffOptions, sink: DiffSink): void;
  /** Deletes (or unmanaged entries) of the kind's undeclared live resources. */
  prune?(desired: ResolvedPolicy, live: LiveState, options: DiffOptions, sink: DiffSink): void;
  /**
   * Its fields of the live state as the state fingerprint commits to them: what its diff compares
   * (server-only details left out), by field name. Absent: it has no field of its own.
   */
  compared?(live: LiveState): Record<string, unknown>;
}

/** A kind as the diff visits it: its name, its diff and, when it needs a platform feature, whether a policy declares any of it. */
export interface KindDiffer extends KindDiff {
  readonly name: ResourceKind;
  /** Whether the policy declares anything of the kind (a feature the branch lacks then blocks the plan). */
  declares?(desired: ResolvedPolicy): boolean;
}

/** The marker of a redacted secret in plans. */
export const REDACTED = "[redacted]";
