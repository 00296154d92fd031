/**
 * Function environment limits shared by the policy's offline validation and the emulator's
 * deployment route: the `environment` part is at most 64 KiB of JSON and names
 * match `^[A-Za-z_][A-Za-z0-9_]*$`, so `validate` refuses what a deployment would get a 413 or
 * 400 for. Leaf module: no imports.
 */

/** Largest `environment` part of a deployment: 64 KiB of UTF-8 JSON. */
export const MAX_ENVIRONMENT_BYTES = 64 * 1024;

/**
 * Bytes of the `environment` part the engine adds to the declared variables: its deployment
 * marker (`SVC_FINGERPRINT_<code>_<config>`) and the deletion of the previous one. The policy's
 * own variables must leave this much room.
 */
export const ENVIRONMENT_MARKER_HEADROOM_BYTES = 256;

/** The longest environment variable name. */
export const MAX_ENV_NAME_LENGTH = 255;

/** Valid environment variable names. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The size in bytes of `env` as the deployment's `environment` part (UTF-8 JSON). */
export function environmentBytes(env: Readonly<Record<string, string>>): number {
  return Buffer.byteLength(JSON.stringify(env), "utf8");
}

/** The size in bytes of one entry (`"NAME":"value",`) of the `environment` part. */
export function environmentEntryBytes(name: string, value: string): number {
  return Buffer.byteLength(JSON.stringify({ [name]: value }), "utf8") - 1;
}

/**
 * What is wrong with an environment variable's value, or `null`: a NUL character cannot be held
 * by any process environment (the value would end there when the function starts).
 */
export function envValueIssue(value: string): string | null {
  return value.includes("\u0000") ? "value contains a NUL character (\\u0000), which no process environment can hold: the function would see a cut value; remove it" : null;
}

/** Whether `name` is a valid environment variable name. */
export function isValidEnvName(name: string): boolean {
  return ENV_NAME_PATTERN.test(name) && name.length <= MAX_ENV_NAME_LENGTH;
}
