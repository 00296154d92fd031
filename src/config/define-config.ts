/** `defineConfig` and `validatePolicy`: the entry points that validate a policy's static part. */
import type { ConfigValidationContext } from "../errors/index.js";
import type { PolicyConfig } from "./policy-types.js";
import { readStaticPolicy } from "./validate-static.js";

/**
 * Declares a policy (docs/policy.md#the-policy-file). Validates the static part immediately (every key but the
 * result of `branch`) and returns a deeply frozen copy; the `branch` closure and custom
 * bundlers are kept by reference.
 *
 * @throws ConfigValidationError (`PLATFORM_CONFIG_INVALID`) listing every issue with its path,
 * e.g. `functions.api.env.STRIPE_KEY`.
 */
export function defineConfig(value: PolicyConfig): PolicyConfig {
  return readStaticPolicy(value).config;
}

/**
 * Validates any value as a policy, as `defineConfig` does, naming `context.file` in the
 * message. Used by the loader on a module's exported value, which may be a plain object. A
 * policy already returned by `defineConfig` or `validatePolicy` is returned as is.
 *
 * @throws ConfigValidationError (`PLATFORM_CONFIG_INVALID`) listing every issue.
 */
export function validatePolicy(value: unknown, context: ConfigValidationContext = {}): PolicyConfig {
  return readStaticPolicy(value, context).config;
}
