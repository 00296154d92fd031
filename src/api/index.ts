/**
 * The platform API client: the `PlatformApi` adapter interface, its HTTP implementation and
 * the option types.
 */
export type * from "./platform-api.js";
export { createPlatformApi } from "./create-platform-api.js";
export {
  DEFAULT_API_HOST,
  DEFAULT_POLLING,
  DEFAULT_TIMEOUTS,
  type PlatformApiOptions,
  type PlatformApiPolling,
  type PlatformApiTimeouts,
} from "./client-options.js";
export type { ApiEvent } from "./transport.js";
export type { ApiRetryEvent } from "../model/events.js";
export { isTerminalStatus } from "./operations.js";
