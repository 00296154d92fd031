/**
 * The inspector: live state for plans (`readLiveState` and its waves, `readNeedsForPolicy`) and
 * `inspect` / `pullConfig` for users.
 */
export { inspect, pullConfig, inspectWith, dataApiDatabase } from "./inspect.js";
export { buildPulledBranchConfig, pulledSettings, type PulledBranchConfig, type PulledBranchRecords, type PulledCredential } from "./pulled-config.js";
export {
  readLiveState,
  readBaseState,
  readFeatureState,
  readBucketsHaveObjects,
  branchNotFound,
  branchNotFoundError,
  type BaseLiveState,
  type LiveStateReadResult,
  type ReadBaseStateOptions,
  type ReadLiveStateOptions,
  type UnavailableFeature,
} from "./read-live-state.js";
export { readNeedsForPolicy, allFeatureReads, NO_FEATURE_READS, DEFAULT_SERVICE_DATABASE, type ReadNeeds } from "./read-needs.js";
export { normalizeTimestamp, normalizeHostname, normalizeCron, FINGERPRINT_MARKER_PREFIX } from "./normalize.js";
