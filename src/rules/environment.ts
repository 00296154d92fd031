/**
 * Function environment limits shared by the policy's offline validation and the emulator's
 * deployment route: the `environment` part is at most 64 KiB of JSON and names
 * match `^[A-Za-z_][A-Za-z0-9_]*$`, so `validate` refuses what a deployment would get a 413 or
 * 400 for. Leaf module: no imports.
 */

/** Largest `environment` part of a deployment: 64 KiB of UTF-8 JSON. */
export const MAX_ENVIRONMENT_BYTES = 64 * 1024;

/** The longest environment variable name. */
export const MAX_ENV_NAME_LENGTH = 255;

/** Prefix of every variable the engine reserves for its deployment markers. */
export const FINGERPRINT_MARKER_PREFIX = "SVC_FINGERPRINT_";

/** Prefix of the markers that hold the per-variable tags (keyed fingerprints). */
export const FINGERPRINT_VAR_PREFIX = `${FINGERPRINT_MARKER_PREFIX}V`;

/** Hex digits of one variable's tag in a per-variable marker. */
export const FINGERPRINT_VAR_TAG_HEX = 8;

/** Per-variable tags one marker name holds, within {@link MAX_ENV_NAME_LENGTH}. */
export const FINGERPRINT_TAGS_PER_NAME = Math.floor((MAX_ENV_NAME_LENGTH - FINGERPRINT_VAR_PREFIX.length) / FINGERPRINT_VAR_TAG_HEX);

/**
 * Bytes of the `environment` part the engine adds to a function declaring `variables` names:
 * its main marker (`SVC_FINGERPRINT_<code>_<env>`), with a fingerprint key the per-variable tags
 * (8 hex each, packed into names of at most 255 characters), and the deletion of the previous
 * deployment's markers of the same sizes. The policy's own variables must leave this much room.
 */
export function markerHeadroomBytes(variables: number): number {
  const names = Math.ceil(variables / FINGERPRINT_TAGS_PER_NAME);
  // 128 bytes per main marker entry (written and deleted), then each packed name's tags and quoting.
  return 256 + 2 * (variables * FINGERPRINT_VAR_TAG_HEX + names * (FINGERPRINT_VAR_PREFIX.length + 8));
}

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
