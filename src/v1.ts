/**
 * The public surface of svc-config, major version 1. `svc-config/v1` pins the major version;
 * `svc-config` re-exports exactly this module.
 */
export * from "./errors/index.js";
export type { Json } from "./model/json.js";
export type * from "./model/plan.js";
export { LIBRARY_VERSION } from "./version.js";
export * from "./config/load-config.js";
export * from "./config/index.js";
export * from "./bundle/index.js";
export * from "./engine/index.js";
export * from "./api/index.js";
export { inspect, pullConfig } from "./engine/inspect.js";
export type { PulledBranchConfig, PulledCredential } from "./inspect/pulled-config.js";

export type { SelectionOptions } from "./engine/options.js";
