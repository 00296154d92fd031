/**
 * `createPlatformApi`: the HTTP implementation of {@link PlatformApi}.
 */
import { createCallContext } from "./call-context.js";
import { type ClientConfig, observing, resolveClientOptions, type PlatformApiOptions } from "./client-options.js";
import { controlPlaneCalls } from "./control-plane-calls.js";
import { featureCalls } from "./feature-calls.js";
import type { PlatformApi } from "./platform-api.js";
import { observable } from "./request-observer.js";

/**
 * Creates a platform client over `fetch`. Validates the options first: an empty `apiKey` throws
 * `PLATFORM_MISSING_API_KEY`, a malformed `apiHost`, timeout or polling value
 * `PLATFORM_INVALID_OPTIONS`. No request is made until a method is called. Every call is there,
 * the optional `compareSchema` and `listFunctionBuilds` included.
 */
export function createPlatformApi(options: PlatformApiOptions): Required<PlatformApi> {
  return platformApiOver(resolveClientOptions(options));
}

/** The client of options `resolveClientOptions` already validated. */
export function platformApiOver(config: ClientConfig): Required<PlatformApi> {
  const context = createCallContext(config);
  // The feature calls are added to the control-plane calls' own fresh object: spreading both into
  // a new literal cost about ten times as much, and the engine makes a client per read wave.
  const calls: Required<PlatformApi> = Object.assign(controlPlaneCalls(context), featureCalls(context));
  return observable(calls, (observer) => platformApiOver(observing(config, observer)));
}
