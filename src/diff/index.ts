export { diffState, summarize } from "./diff-state.js";
export { orderChanges, compareChanges } from "./order-changes.js";
export { stateFingerprint, comparedProjection } from "./state-fingerprint.js";
export { canonicalJson, sha256Of } from "./canonical-json.js";
export { parseMarker, MARKER_PREFIX } from "./functions.js";
export { toWireSettings, serviceDatabase, DATA_API_WIRE_KEYS } from "./services.js";
export type { DiffOptions, DiffResult, FunctionTag, PlannedChange, ChangeOp } from "./plan-types.js";
