/**
 * Function fingerprints: the markers a deployment carries so the next plan can tell what changed
 * without reading env values (their names: `diff/fingerprint-markers.ts`). The code tag follows
 * the archive; the env tag, apart from it, the deployed env (names and values; the runtime is
 * compared from the live deployment). Keyed mode (a caller's `fingerprintKey`) makes the env tag an
 * HMAC and adds a short keyed tag per variable, so a plan names exactly the variables whose value
 * changed: microseconds. Hardened mode (no key) stretches each distinct env value once with scrypt
 * on a worker pool, memoised per process, and writes no per-variable tag (each would let a guess
 * be tested against one value alone). The config tag older versions wrote (archive, runtime and
 * env together) is computed too, so their deployments are compared, not redeployed.
 */
import { type KeyObject, createHash, createHmac, createSecretKey, hash as hashOnce, randomBytes } from "node:crypto";
import { canonicalJson } from "../diff/canonical-json.js";
import { markerNames, readLiveFingerprint } from "../diff/fingerprint-markers.js";
import type { FunctionTag } from "../model/planned-change.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import { FINGERPRINT_VAR_TAG_HEX } from "../rules/environment.js";
import { type PoolDerivation, startScrypt } from "./scrypt-pool.js";

/** Domain of the code tag, the value keys and the older config tag (unchanged, so they stay comparable). */
const DOMAIN = "svc-fp/2";
/** Domain of the env tag and the per-variable tags. */
const ENV_DOMAIN = "svc-fp/3";
const SEP = "\u0000";
/** Bytes a `fingerprintKey` must decode to, at least. */
export const MIN_FINGERPRINT_KEY_BYTES = 32;

/** What a fingerprint is computed from. Env values are secrets: they never leave this module. */
export interface FingerprintInput {
  slug: string;
  zipSha256: string;
  runtime: string;
  env: Readonly<Record<string, string>>;
}

/**
 * Decodes a `fingerprintKey` (hex, or base64 / base64url) of at least 32 bytes. Throws
 * `PLATFORM_INVALID_OPTIONS` otherwise; the error never contains the key.
 */
export function parseFingerprintKey(value: unknown): Buffer {
  const text = typeof value === "string" ? value.trim() : "";
  let bytes: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) bytes = Buffer.from(text, "hex");
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) bytes = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64");
  if (bytes === undefined || bytes.length < MIN_FINGERPRINT_KEY_BYTES) {
    const got = typeof value === "string" ? `${bytes?.length ?? 0} decodable bytes` : typeof value;
    throw new PlatformError(
      ErrorCode.INVALID_OPTIONS,
      `Invalid option fingerprintKey: it must be at least ${MIN_FINGERPRINT_KEY_BYTES} random bytes written as hex or base64 (got ${got}). ` +
        "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
      { details: { option: "fingerprintKey", value: "(not shown)" } },
    );
  }
  return bytes;
}

/** Whether {@link parseFingerprintKey} accepts `value` (without the error it throws otherwise). */
export function isFingerprintKey(value: unknown): boolean {
  try {
    parseFingerprintKey(value);
    return true;
  } catch {
    return false;
  }
}

/** First 20 hex (uppercase) of HMAC-SHA256(key `"svc-fp/2"‖projectId‖slug`, zipSha256). */
export function computeCodeTag(projectId: string, slug: string, zipSha256: string): string {
  return createHmac("sha256", [DOMAIN, projectId, slug].join(SEP)).update(zipSha256).digest("hex").slice(0, 20).toUpperCase();
}

/** What the fingerprints read of a live function: its current deployment's status and its marker names. */
export interface DeployedMarkers {
  readonly current?: { readonly status: string };
  readonly markers: readonly string[];
}

/**
 * Whether the plan's decision for a function can depend on its env tag (in hardened mode: whether
 * to spend the derivations at plan time): when it has a non-failed deployment whose markers carry
 * an env tag apart from the code, or an older marker with the same code tag. Otherwise it is
 * deployed whatever the env, and nothing could be compared.
 */
export function envTagMatters(live: DeployedMarkers | undefined, codeTag: string): boolean {
  if (live === undefined || live.current === undefined || live.current.status === "failed") return false;
  const marked = readLiveFingerprint(live.markers);
  return marked.main !== undefined || marked.legacy?.codeTag === codeTag;
}

/** A value's key as the process holds it: derived at most once, however many operations use it. */
interface ValueKey {
  /** Its key in the process's memo: a digest of the salt and the value. */
  readonly memoKey: string;
  readonly derivation: PoolDerivation;
  /** When it was asked for, and when its key was ready (`performance.now()`). */
  readonly started: number;
  ended: number | undefined;
  /** An operation's decision used it (and counted it among its derivations). */
  claimed: boolean;
}

const valueKeys = new Map<string, ValueKey>();

/**
 * k(name, value) = scrypt(value, "svc-fp/2"‖projectId‖name), started unheld and unclaimed when
 * the process has not asked for it yet: once per distinct value per process (memoised under a
 * digest, never the value). A derivation that fails or is cancelled is forgotten.
 */
function valueKeyOf(projectId: string, name: string, value: string): ValueKey {
  const salt = `${DOMAIN}${SEP}${projectId}${SEP}${name}`;
  // One call, no hash object: a keyless plan asks this of every variable of every function, in its prefetch and again in each tag.
  const memoKey = hashOnce("sha256", `${salt}${SEP}${value}`, "hex");
  const known = valueKeys.get(memoKey);
  if (known !== undefined) return known;
  const entry: ValueKey = { memoKey, derivation: startScrypt(Buffer.from(value, "utf8"), Buffer.from(salt, "utf8")), started: performance.now(), ended: undefined, claimed: false };
  valueKeys.set(memoKey, entry);
  entry.derivation.key.then(
    () => {
      entry.ended = performance.now();
    },
    () => {
      if (valueKeys.get(memoKey) === entry) valueKeys.delete(memoKey);
    },
  );
  return entry;
}

/** Every value of `envs` as the process's entries: each derivation started unless the process has it already. */
function valueKeysOf(projectId: string, envs: Iterable<Readonly<Record<string, string>>>): ValueKey[] {
  const entries: ValueKey[] = [];
  for (const env of envs) {
    for (const [name, value] of Object.entries(env)) if (typeof value === "string") entries.push(valueKeyOf(projectId, name, value));
  }
  return entries;
}

/**
 * Starts deriving, for `projectId`, the hardened keys of every value of `envs` (each function's
 * env as the policy declares it) before any decision needs them, without keeping the process
 * alive for them: a caller that knows the functions early (the CLI, once the policy is loaded)
 * overlaps the derivations with its reads. A later fingerprint uses them as if it had derived
 * them itself (same keys, counted in its {@link Fingerprinter.stats}); a value it never needs
 * costs a derivation that nothing waits for.
 */
export function prefetchValueKeys(projectId: string, envs: Iterable<Readonly<Record<string, string>>>): void {
  valueKeysOf(projectId, envs);
}

/** Cancels `entry` if no decision used it and no worker has started it; the process forgets it. */
function dropUnclaimed(entry: ValueKey): void {
  if (entry.claimed || !entry.derivation.cancel()) return;
  if (valueKeys.get(entry.memoKey) === entry) valueKeys.delete(entry.memoKey);
}

/** Every env entry, by name in UTF-16 order (the order `canonicalJson` sorts keys in). */
function sortedEnvEntries(env: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(env).sort(byName);
}

function byName([a]: readonly [string, unknown], [b]: readonly [string, unknown]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The env entries a deployment leaves on the function, by name: `""` deletes, so it is not state. */
function deployedEntries(env: Readonly<Record<string, string>>): [string, string][] {
  return sortedEnvEntries(env).filter(([, value]) => value !== "");
}

/**
 * The `canonicalJson` text of the object these entries (sorted by name, as {@link sortedEnvEntries}
 * sorts them) make, written from the entries: the same text without building the object and sorting
 * its keys again. `undefined` when a value is not a string (`canonicalJson` then decides).
 */
function sortedEntriesJson(entries: readonly (readonly [string, unknown])[]): string | undefined {
  let out = "{";
  for (const [name, value] of entries) {
    if (typeof value !== "string") return undefined;
    out += `${out.length === 1 ? "" : ","}${JSON.stringify(name)}:${JSON.stringify(value)}`;
  }
  return `${out}}`;
}

/** The first `length` hex digits (uppercase) of HMAC-SHA256(key, parts joined by NUL). */
function hmacHex(key: Buffer | KeyObject | string, parts: readonly string[], length: number): string {
  return createHmac("sha256", key).update(parts.join(SEP)).digest("hex").slice(0, length).toUpperCase();
}

/** The key of one env value (`name` salts it), as a hardened tag is keyed. */
type ValueKeyOf = (name: string, value: string) => Promise<Buffer>;

/** Hardened: the env tag and the older config tag, each keyed by the keys of its values. */
async function hardenedTag(input: FingerprintInput, code: string, keyOf: ValueKeyOf): Promise<FullFunctionTag> {
  const macKey = async (names: readonly string[]): Promise<Buffer> => {
    const keys = await Promise.all(names.map((name) => keyOf(name, input.env[name] ?? "")));
    const digest = createHash("sha256");
    for (const k of keys) digest.update(k);
    return digest.digest();
  };
  const declared = Object.keys(input.env).sort();
  const deployed = deployedEntries(input.env).map(([name]) => name);
  // Without an empty value the two lists are the same names in the same order, so one key serves both.
  const legacy = macKey(declared);
  const [legacyKey, envKey] = await Promise.all([legacy, deployed.length === declared.length ? legacy : macKey(deployed)]);
  const envTag = `EH${hmacHex(envKey, [ENV_DOMAIN, input.slug, "env", ...deployed], 18)}`;
  const legacyConfigTag = `H${hmacHex(legacyKey, [DOMAIN, input.slug, input.zipSha256, input.runtime, ...declared], 19)}`;
  return { zipSha256: input.zipSha256, codeTag: code, envTag, legacyConfigTag, markers: markerNames(code, envTag) };
}

/** A key as keyed fingerprints use it: imported once, its id, and a digest naming it in memos. */
interface KeyedContext {
  /** An HMAC under a key object skips copying the key into each new HMAC (four per function). */
  readonly secret: KeyObject;
  /** Names the key inside keyed env tags, so a plan tells a new key from new values. */
  readonly keyId: string;
  /** SHA-256 of the key: names it in {@link keyedEnvParts} without holding it. */
  readonly keyDigest: string;
  readonly projectId: string;
}

function keyedContext(projectId: string, key: Buffer): KeyedContext {
  const secret = createSecretKey(key);
  return { secret, keyId: hmacHex(secret, [ENV_DOMAIN, "key-id"], 4), keyDigest: sha256Hex(key), projectId };
}

/** The part of a keyed tag that depends on neither the archive nor the live state. */
interface KeyedEnvPart {
  envTag: string;
  varTags: Record<string, string>;
}

/**
 * The env tag and the per-variable tags of `slug` under the key, from its deployed env entries
 * (sorted by name) and their canonical JSON text.
 */
function keyedEnvPart(ctx: KeyedContext, slug: string, deployed: readonly [string, string][], deployedJson: string): KeyedEnvPart {
  const varTags: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of deployed) varTags[name] = hmacHex(ctx.secret, [ENV_DOMAIN, ctx.projectId, slug, "var", name, value], FINGERPRINT_VAR_TAG_HEX);
  return { envTag: `EK${ctx.keyId}${hmacHex(ctx.secret, [ENV_DOMAIN, ctx.projectId, slug, "env", deployedJson], 14)}`, varTags };
}

/** The deployed entries of an env (sorted, `""` left out) and their canonical JSON text. */
function deployedJsonOf(declared: readonly [string, string][]): { deployed: [string, string][]; json: string } {
  const deployed = declared.filter(([, value]) => value !== "");
  return { deployed, json: sortedEntriesJson(deployed) ?? canonicalJson(Object.fromEntries(deployed)) };
}

/**
 * Env parts computed ahead of the operation that uses them ({@link prefetchKeyedEnvTags}), under a
 * digest of the key, the project, the slug and the deployed env (never a value or the key): the
 * first keyed tag of the same inputs takes its entry, and the entry is forgotten.
 */
const keyedEnvParts = new Map<string, KeyedEnvPart>();

function envPartMemoKey(ctx: KeyedContext, slug: string, deployedJson: string): string {
  return sha256Hex([ctx.keyDigest, ctx.projectId, slug, deployedJson].join(SEP));
}

function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Keyed mode: computes now the env tag and the per-variable tags of each function (four of a keyed
 * tag's six HMACs: they need neither the archive nor the live state), so that a caller that knows
 * the functions early (the CLI, while it waits for the target's reads) takes them off the plan's
 * path. A later keyed tag of the same project, key, slug and env uses them; any other input computes
 * its own, so a function prefetched wrongly or not at all costs only the time spent here. An env with
 * a value that is not a string is skipped.
 */
export function prefetchKeyedEnvTags(projectId: string, key: Buffer, functions: Iterable<{ slug: string; env: Readonly<Record<string, unknown>> }>): void {
  const ctx = keyedContext(projectId, key);
  for (const { slug, env } of functions) {
    const entries = Object.entries(env);
    if (!entries.every((entry): entry is [string, string] => typeof entry[1] === "string")) continue;
    const { deployed, json } = deployedJsonOf(entries.sort(byName));
    keyedEnvParts.set(envPartMemoKey(ctx, slug, json), keyedEnvPart(ctx, slug, deployed, json));
  }
}

/** A fingerprint with its env parts: what {@link Fingerprinter.tag} returns. */
export type FullFunctionTag = FunctionTag & Required<Pick<FunctionTag, "envTag" | "legacyConfigTag" | "markers">>;

/** Computes the fingerprints of one operation. */
export interface Fingerprinter {
  /** `keyed` with a key, `hardened` without. */
  readonly mode: "keyed" | "hardened";
  /** The code tag of a function's archive. */
  codeTag(slug: string, zipSha256: string): string;
  /** The full tag; in hardened mode waits for the function's env values to be derived. */
  tag(input: FingerprintInput): Promise<FullFunctionTag>;
  /** The tag without the env parts (hardened mode, when the decision cannot depend on them). */
  deferredTag(input: FingerprintInput): FunctionTag;
  /**
   * Hardened mode: starts deriving every value of these env objects now (the resolved policy's
   * functions), before the reads tell which decisions need them; keyed mode: nothing.
   */
  prefetch(envs: Iterable<Readonly<Record<string, string>>>): void;
  /**
   * Hardened mode: cancels what {@link prefetch} started that no {@link tag} used and no worker
   * has started yet (a dry run calls it once every decision is made: nothing later needs them).
   */
  dropUnused(): void;
  /** Derivations this fingerprinter's tags were the first to use, and the wall time from the first one's start to the last one's end, ms. */
  stats(): { derivations: number; ms: number };
}

/** A fingerprinter for `projectId`: keyed when `key` (from {@link parseFingerprintKey}) is given, hardened otherwise. */
export function createFingerprinter(projectId: string, key?: Buffer): Fingerprinter {
  const claimed: ValueKey[] = [];
  const prefetched: ValueKey[] = [];
  const codeTag = (slug: string, zipSha256: string): string => computeCodeTag(projectId, slug, zipSha256);
  const keyed = key === undefined ? undefined : keyedContext(projectId, key);

  /** Keyed: the env tag, one tag per deployed variable and the older config tag, all HMACs under the key. */
  function keyedTag(ctx: KeyedContext, input: FingerprintInput, code: string): FullFunctionTag {
    const declared = sortedEnvEntries(input.env);
    const { deployed, json } = deployedJsonOf(declared);
    // Computed ahead while the target was read, when a caller prefetched it.
    const memoKey = keyedEnvParts.size === 0 ? undefined : envPartMemoKey(ctx, input.slug, json);
    const ahead = memoKey === undefined ? undefined : keyedEnvParts.get(memoKey);
    if (memoKey !== undefined && ahead !== undefined) keyedEnvParts.delete(memoKey);
    const { envTag, varTags } = ahead ?? keyedEnvPart(ctx, input.slug, deployed, json);
    // canonicalJson({ runtime, env }): its keys sort as "env", "runtime".
    const declaredJson = typeof input.runtime === "string" ? sortedEntriesJson(declared) : undefined;
    const configJson = declaredJson === undefined ? canonicalJson({ runtime: input.runtime, env: input.env }) : `{"env":${declaredJson},"runtime":${JSON.stringify(input.runtime)}}`;
    const legacyConfigTag = `K${hmacHex(ctx.secret, [DOMAIN, projectId, input.slug, input.zipSha256, configJson], 19)}`;
    return { zipSha256: input.zipSha256, codeTag: code, envTag, legacyConfigTag, varTags, markers: markerNames(code, envTag, Object.values(varTags)) };
  }

  /** The key of one value, held for this operation; the first operation to use it counts it as its derivation. */
  function use(entry: ValueKey): Promise<Buffer> {
    entry.derivation.hold();
    if (!entry.claimed) {
      entry.claimed = true;
      claimed.push(entry);
    }
    return entry.derivation.key;
  }

  return {
    mode: key === undefined ? "hardened" : "keyed",
    codeTag,
    async tag(input) {
      const code = codeTag(input.slug, input.zipSha256);
      return keyed === undefined ? hardenedTag(input, code, (name, value) => use(valueKeyOf(projectId, name, value))) : keyedTag(keyed, input, code);
    },
    deferredTag(input) {
      return { zipSha256: input.zipSha256, codeTag: codeTag(input.slug, input.zipSha256) };
    },
    prefetch(envs) {
      if (key === undefined) prefetched.push(...valueKeysOf(projectId, envs));
    },
    dropUnused() {
      for (const entry of prefetched.splice(0)) dropUnclaimed(entry);
    },
    stats() {
      const first = Math.min(...claimed.map((entry) => entry.started));
      const last = Math.max(...claimed.map((entry) => entry.ended ?? Number.NaN));
      return { derivations: claimed.length, ms: claimed.length === 0 || Number.isNaN(last) ? 0 : last - first };
    },
  };
}

/**
 * A fingerprinter for a verification's replica, for the functions whose env tag the plan deferred
 * (hardened mode): tags of the hardened shape and size (the same marker names, the same
 * deployment body), whose value keys are HMAC-SHA256 under 32 random bytes this fingerprinter
 * holds instead of scrypt derivations. Its tags compare only with its own: they are for a replica
 * in this process, whose markers are never sent to a platform nor kept, so the derivation that
 * protects markers a platform holds has nothing to protect there. Derives nothing, prefetches nothing.
 */
export function createReplicaFingerprinter(projectId: string): Fingerprinter {
  const secret = randomBytes(32);
  const keyOf: ValueKeyOf = async (name, value) => createHmac("sha256", secret).update([DOMAIN, projectId, name].join(SEP)).update(SEP).update(value).digest();
  const codeTag = (slug: string, zipSha256: string): string => computeCodeTag(projectId, slug, zipSha256);
  return {
    mode: "hardened",
    codeTag,
    tag: (input) => hardenedTag(input, codeTag(input.slug, input.zipSha256), keyOf),
    deferredTag: (input) => ({ zipSha256: input.zipSha256, codeTag: codeTag(input.slug, input.zipSha256) }),
    prefetch: () => undefined,
    dropUnused: () => undefined,
    stats: () => ({ derivations: 0, ms: 0 }),
  };
}
