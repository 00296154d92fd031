import type { FeatureKind } from "../kinds/index.js";
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
  unavailable?: Partial<Record<FeatureKind, string>>;
}

/** The outcome of {@link diffState}: an ordered plan plus everything reported beside it. */
export interface DiffResult {
  /** Topologically ordered. */
  changes: PlannedChange[];
  conflicts: ConflictReport[];
  unmanaged: UnmanagedEntry[];
  warnings: EngineWarning[];
  /** `sha256:<hex>` of the compared projection of the live state. */
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

/** The marker of a redacted secret in plans. */
export const REDACTED = "[redacted]";
