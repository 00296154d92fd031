/**
 * The names of a deployment's fingerprint markers: env variables whose names carry what a plan
 * compares, since the platform returns env names and never values. Pure: names in, tags out.
 *
 * - `SVC_FINGERPRINT_<codeTag>_E<K|H>…`: the code tag (the archive) and, apart from it, the env
 *   tag (a MAC over the deployed env: `EK<key id>…` under a fingerprint key, `EH…` hardened).
 *   Written by this version.
 * - `SVC_FINGERPRINT_V<8 hex>…`: under a fingerprint key, one short keyed tag per deployed
 *   variable (sorted, packed into names of at most 255 characters), so a plan names exactly the
 *   variables whose value changed.
 * - `SVC_FINGERPRINT_<codeTag>_<K|H><19 hex>` (or plain hex): written by older versions, whose one
 *   config tag covers the archive, the runtime and the env together. Still read and compared, so
 *   their deployments are not redeployed; the next deployment replaces it with the markers above.
 */
import { FINGERPRINT_MARKER_PREFIX, FINGERPRINT_TAGS_PER_NAME, FINGERPRINT_VAR_PREFIX, FINGERPRINT_VAR_TAG_HEX } from "../rules/environment.js";

/** One marker name, parsed. */
export type ParsedMarker =
  | { kind: "main"; codeTag: string; envTag: string }
  | { kind: "legacy"; codeTag: string; configTag: string }
  | { kind: "vars"; tags: string[] };

const VARS = new RegExp(`^${FINGERPRINT_VAR_PREFIX}((?:[0-9A-F]{${FINGERPRINT_VAR_TAG_HEX}})+)$`);
const MAIN = new RegExp(`^${FINGERPRINT_MARKER_PREFIX}([0-9A-F]+)_(E[KH][0-9A-F]+)$`);
const LEGACY = new RegExp(`^${FINGERPRINT_MARKER_PREFIX}([0-9A-F]+)_([KH]?[0-9A-F]+)$`);
const TAG = new RegExp(`[0-9A-F]{${FINGERPRINT_VAR_TAG_HEX}}`, "g");

/** Parses a marker name, or `undefined` when it is not one. */
export function parseMarker(name: string): ParsedMarker | undefined {
  const vars = VARS.exec(name);
  if (vars?.[1] !== undefined) return { kind: "vars", tags: vars[1].match(TAG) ?? [] };
  const main = MAIN.exec(name);
  if (main?.[1] !== undefined && main[2] !== undefined) return { kind: "main", codeTag: main[1], envTag: main[2] };
  const legacy = LEGACY.exec(name);
  if (legacy?.[1] !== undefined && legacy[2] !== undefined) return { kind: "legacy", codeTag: legacy[1], configTag: legacy[2] };
  return undefined;
}

/** What a live function's markers say: its main (or older) marker and the per-variable tags. */
export interface LiveFingerprint {
  main?: { codeTag: string; envTag: string };
  legacy?: { codeTag: string; configTag: string };
  varTags: ReadonlySet<string>;
}

/** Reads a live function's marker names (the first main and the first older marker count). */
export function readLiveFingerprint(markers: readonly string[]): LiveFingerprint {
  let main: LiveFingerprint["main"];
  let legacy: LiveFingerprint["legacy"];
  const varTags = new Set<string>();
  for (const name of markers) {
    const parsed = parseMarker(name);
    if (parsed?.kind === "main") main ??= { codeTag: parsed.codeTag, envTag: parsed.envTag };
    else if (parsed?.kind === "legacy") legacy ??= { codeTag: parsed.codeTag, configTag: parsed.configTag };
    else if (parsed?.kind === "vars") for (const tag of parsed.tags) varTags.add(tag);
  }
  return { ...(main ? { main } : {}), ...(legacy ? { legacy } : {}), varTags };
}

/** The code tag the live markers carry (the main marker's, else an older one's). */
export function liveCodeTag(markers: readonly string[]): string | undefined {
  const live = readLiveFingerprint(markers);
  return live.main?.codeTag ?? live.legacy?.codeTag;
}

/**
 * What the env tag says about how it was made: `EH` hardened, `EK<key id>` keyed (the key id names
 * the key, so a new key is told from new values). Two env tags are comparable only in one mode.
 */
export function envTagMode(envTag: string): string {
  return envTag.startsWith("EK") ? envTag.slice(0, 6) : envTag.slice(0, 2);
}

/** The marker names of a deployment: the main one, then the per-variable tags packed in order. */
export function markerNames(codeTag: string, envTag: string, varTags: readonly string[] = []): string[] {
  const sorted = [...new Set(varTags)].sort();
  const packed: string[] = [];
  for (let i = 0; i < sorted.length; i += FINGERPRINT_TAGS_PER_NAME) packed.push(FINGERPRINT_VAR_PREFIX + sorted.slice(i, i + FINGERPRINT_TAGS_PER_NAME).join(""));
  return [`${FINGERPRINT_MARKER_PREFIX}${codeTag}_${envTag}`, ...packed];
}
