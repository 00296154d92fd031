/** The policy model's public surface: declaring, validating and resolving a `svc.ts` policy. */
export { defineConfig, validatePolicy } from "./define-config.js";
export { resolvePolicy, type ResolvePolicyOptions } from "./resolve-policy.js";
export { parseDuration, formatDuration, type Duration, type DurationSuggestion } from "./durations.js";
export type * from "./policy-types.js";
export type * from "../model/desired-state.js";
