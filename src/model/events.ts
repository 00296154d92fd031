/** Progress events: what the engine and the HTTP client report through `onEvent`. Plain data. */
import type { PlanSummary } from "./plan.js";

/** A retry the client is about to make (the `retry` event). Never carries secrets. */
export interface ApiRetryEvent {
  type: "retry";
  method: string;
  path: string;
  /** The attempt that failed, 1-based. */
  attempt: number;
  delayMs: number;
  /** Absent when there was no response. */
  status?: number;
  requestId: string;
}

/**
 * Progress reported through the `onEvent` option. Never carries env values
 * or the API key; listeners are called synchronously and their exceptions are swallowed.
 */
export type EngineEvent =
  | { type: "read"; wave: number; request: string; status?: number; ms: number; requestId: string }
  | { type: "bundle"; slug: string; phase: "start" | "done"; zipBytes?: number; zipSha256?: string }
  | { type: "plan"; summary: PlanSummary }
  | { type: "change"; id: string; phase: "start" | "done" | "failed" | "skipped"; reason?: string }
  | { type: "wait"; changeId: string; waitingFor: "operation" | "deployment"; id: string; status: string }
  | ApiRetryEvent
  | { type: "warning"; code: string; message: string; address?: string }
  /** Hardened fingerprints: how many env values were derived and the wall time until the last finished. */
  | { type: "fingerprints"; mode: "hardened"; derivations: number; ms: number };
