/**
 * Which env values of an existing function a deployment changes, read from the fingerprint
 * markers alone: the platform returns env names, never values. Pure.
 *
 * Under one fingerprint key on both sides the per-variable tags name exactly the variables whose
 * value changed. Otherwise a differing env tag says only that some value (or the set of declared
 * names) differs, and with no comparable marker nothing can be said: the declared names the branch
 * already has are then the ones whose value "may have" changed.
 */
import type { ResolvedFunction } from "../model/desired-state.js";
import type { LiveFunction } from "../model/live-state.js";
import type { FunctionTag } from "../model/planned-change.js";
import { envTagMode, readLiveFingerprint } from "./fingerprint-markers.js";

/** What the markers say about the values of the declared names the branch already has. */
export interface EnvValueVerdict {
  /** The fingerprints differ: a deployment is due even when names, runtime and code are equal. */
  differs: boolean;
  /** Names whose value changed, known exactly (keyed on both sides, with the same key). */
  changed: string[];
  /** Names whose value may have changed: the fingerprint cannot say which, or nothing compares. */
  uncertain: string[];
  /** Why {@link uncertain} is not exact, said in the change's reason. */
  why?: string;
  /** The fingerprint key changed (or was set or unset): said even when no kept name is involved. */
  keyChanged?: boolean;
}

/** Declared names with a value that the branch already has: the names whose value may change. */
export function keptEnvNames(fn: ResolvedFunction, liveNames: readonly string[]): string[] {
  const live = new Set(liveNames);
  return Object.entries(fn.env)
    .filter(([name, value]) => value !== "" && live.has(name))
    .map(([name]) => name)
    .sort();
}

const SAME: EnvValueVerdict = { differs: false, changed: [], uncertain: [] };
const NO_VALUES = "the platform keeps no values to compare";

function modeChange(live: string, ours: string): string {
  if (live.startsWith("EK") && ours.startsWith("EK")) return "the fingerprint key (SVC_FINGERPRINT_KEY) changed since the last deployment, so no value can be compared";
  if (ours.startsWith("EK")) return "the last deployment was fingerprinted without a key and SVC_FINGERPRINT_KEY is set now, so no value can be compared";
  return "the last deployment was fingerprinted with a key and SVC_FINGERPRINT_KEY is not set now, so no value can be compared";
}

/** Compares the declared env of `fn` with the live function's markers through `tag`. */
export function compareEnvValues(fn: ResolvedFunction, live: LiveFunction, tag: FunctionTag): EnvValueVerdict {
  const kept = keptEnvNames(fn, live.envNames);
  const unknown = (why: string): EnvValueVerdict => ({ differs: true, changed: [], uncertain: kept, why });
  const marked = readLiveFingerprint(live.markers);
  if (marked.main !== undefined && tag.envTag !== undefined) {
    if (marked.main.envTag === tag.envTag) return SAME;
    const liveMode = envTagMode(marked.main.envTag);
    const ourMode = envTagMode(tag.envTag);
    if (liveMode !== ourMode) return { ...unknown(modeChange(liveMode, ourMode)), keyChanged: true };
    const varTags = tag.varTags;
    if (varTags === undefined) return unknown("without SVC_FINGERPRINT_KEY one fingerprint covers all values together");
    if (kept.length > 0 && marked.varTags.size === 0) return unknown(`${NO_VALUES}, and the last deployment carries no per-variable fingerprint`);
    const changed = kept.filter((name) => {
      const own = varTags[name];
      return own === undefined || !marked.varTags.has(own);
    });
    return { differs: true, changed, uncertain: [] };
  }
  if (marked.legacy !== undefined && marked.legacy.codeTag === tag.codeTag && tag.legacyConfigTag !== undefined) {
    if (marked.legacy.configTag === tag.legacyConfigTag) return SAME;
    const letters = [marked.legacy.configTag[0], tag.legacyConfigTag[0]];
    const modeChanged = /^[KH]$/.test(letters[0] ?? "") && letters[0] !== letters[1];
    if (modeChanged) return { ...unknown(`${NO_VALUES}; the fingerprint mode changed (SVC_FINGERPRINT_KEY set or unset)`), keyChanged: true };
    return unknown(`${NO_VALUES}, and an older svc-config fingerprinted all values together`);
  }
  return unknown(NO_VALUES);
}

/** The reason's words for the values: `the value of A, B changed`, or what may have changed and why. */
export function envValueReasons(verdict: EnvValueVerdict): string[] {
  const out: string[] = [];
  if (verdict.changed.length > 0) out.push(`the value of ${verdict.changed.join(", ")} changed`);
  if (verdict.uncertain.length > 0) {
    const which = verdict.uncertain.length === 1 ? "" : "one or more of ";
    out.push(`the value of ${which}${verdict.uncertain.join(", ")} may have changed (${verdict.why ?? NO_VALUES})`);
  } else if (verdict.keyChanged === true && verdict.why !== undefined) out.push(verdict.why);
  return out;
}
