/** What one bench run measures, and the fixed settings every run uses. */
import type { ScenarioName } from "./scenarios.js";

/** The emulator's operation and build durations in every measurement (issue 10). */
export const BENCH_TIMINGS = { opSchedulingMs: 0, opRunMs: 300, deployPendingMs: 0, deployBuildMs: 500, domainActivationMs: 500 } as const;
/** A fixed bootstrap key, so a saved world can be restored with the same credentials. */
export const BENCH_API_KEY = "svc-bench-key-0001";
/** Every run is keyed (the set-up recommended for pipelines), so no scrypt runs. */
export const BENCH_FINGERPRINT_KEY = "be4c".repeat(16);

/** What one run printed. */
export interface Measurement {
  scenario: ScenarioName;
  op: "plan" | "apply";
  concurrency: number;
  latencyMs: number;
  wallMs: number;
  /** Until the first mutation was sent (the whole run when there is none), ms. */
  planPhaseMs: number;
  requests: number;
  waves: number;
  mutations: number;
  deployments: number;
  changes: number;
  failed: number;
  lowerBoundMs: number;
}
