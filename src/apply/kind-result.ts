/**
 * What a kind adds to an operation's result beside its changes (`KindModule.result`): its own
 * fields of the `PushResult` and its warnings, and what its saved-plan digests hold that no view
 * shows (the values printed after an apply are its light module's `outputs`). Pure; the engine and the views visit the kinds in
 * rank order.
 */
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { ConflictReport, EngineWarning, PushResult } from "../model/plan.js";
import type { ExecutionOutcome } from "./execute-plan.js";

/** What a result is built from: the plan's two sides, the conflicts reported and, after an execution, its outcome. */
export interface KindResultInput {
  desired: ResolvedPolicy;
  live: LiveState;
  conflicts: readonly ConflictReport[];
  /** Undefined for a dry run or a refused push. */
  outcome: ExecutionOutcome | undefined;
}

/** A kind's part of the results. */
export interface KindResult {
  /** Its own fields of the `PushResult` (present in every result, plans included) and the warnings the run gives. */
  readonly fields?: (input: KindResultInput) => { fields: Partial<PushResult>; warnings: EngineWarning[] };
  /**
   * What a saved plan's digest of one of its changes holds that no view shows, said when only
   * that differs from a fresh plan (never a value).
   */
  readonly hiddenDifference?: string;
}
