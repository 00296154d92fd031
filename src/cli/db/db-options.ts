/**
 * The options of `svc db` and `svc db claim`, validated in every mode, not only
 * when prompted.
 */
import { ErrorCode, PlatformError } from "../../errors/index.js";
import { DEFAULT_CLAIM_API_HOST } from "../../instant/client.js";

/** `svc db` options after validation and defaults. */
export interface DbOptions {
  readonly yes: boolean;
  readonly env: string | undefined;
  readonly key: string | undefined;
  readonly prefix: string | undefined;
  readonly seed: string | undefined;
  readonly logicalReplication: boolean;
  readonly ref: string;
  readonly json: boolean;
  readonly apiHost: string;
}

/** Default env file. */
export const DEFAULT_ENV_FILE = "./.env";
/** Default variable of the pooled connection string. */
export const DEFAULT_KEY = "DATABASE_URL";
/** Default prefix of the public variables. */
export const DEFAULT_PREFIX = "PUBLIC_";
/** Default referrer of `svc db`. */
export const DEFAULT_REF = "svc-config/cli";

const KEY = /^[A-Z_][A-Z0-9_]*$/;
const PREFIX = /^[A-Z0-9_]*$/;

function invalid(message: string): PlatformError {
  return new PlatformError(ErrorCode.INSTANT_INVALID_OPTIONS, message);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Throws `PLATFORM_INSTANT_INVALID_OPTIONS` unless `key` is a valid variable name. */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw invalid(`--key "${key}" must be an upper-case variable name matching ^[A-Z_][A-Z0-9_]*$ (e.g. DATABASE_URL).`);
  return key;
}

/** Throws `PLATFORM_INSTANT_INVALID_OPTIONS` unless `prefix` is a valid (possibly empty) prefix. */
export function checkPrefix(prefix: string): string {
  if (!PREFIX.test(prefix)) throw invalid(`--prefix "${prefix}" must match ^[A-Z0-9_]*$ (e.g. PUBLIC_ or VITE_; empty is allowed).`);
  return prefix;
}

/** Throws unless `env` names a file path. */
export function checkEnvPath(env: string): string {
  if (env.trim() === "") throw invalid("--write-env (-e, --env) must be the path of an env file, e.g. .env");
  return env;
}

/**
 * The env file `svc db` writes and `svc db claim` reads: `--write-env`, or `-e`/`--env`, its
 * spelling in the tool `svc db` follows. Both at once must name the same file.
 */
export function writtenEnvFile(opts: Record<string, unknown>): string | undefined {
  const writeEnv = text(opts["writeEnv"]);
  const env = text(opts["env"]);
  if (writeEnv !== undefined && env !== undefined && writeEnv !== env) {
    throw invalid(`--write-env ${JSON.stringify(writeEnv)} and -e/--env ${JSON.stringify(env)} name two files; they are the same option: give one`);
  }
  return writeEnv ?? env;
}

/**
 * The claim API origin: `--api-host`, else `SVC_CLAIM_API_HOST`, else production. A trailing
 * `/api/v1` is accepted; the value must be an http(s) URL.
 */
export function resolveApiHost(flag: unknown, env: Record<string, string | undefined>, fallback: string | undefined = DEFAULT_CLAIM_API_HOST): string | undefined {
  const value = text(flag) ?? (fallback === DEFAULT_CLAIM_API_HOST ? env["SVC_CLAIM_API_HOST"] || undefined : undefined) ?? fallback;
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`--api-host "${value}" is not a URL; give the claim API origin, e.g. https://neon.new`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid(`--api-host "${value}" must be an http: or https: URL`);
  return value.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
}

/** Validates the raw commander options of `svc db`. */
export function parseDbOptions(opts: Record<string, unknown>, env: Record<string, string | undefined>): DbOptions {
  const ref = text(opts["ref"]) ?? DEFAULT_REF;
  if (ref.trim() === "") throw invalid("--ref must be a non-empty referrer naming the app or tool, e.g. my-app");
  const envPath = writtenEnvFile(opts);
  const key = text(opts["key"]);
  const prefix = text(opts["prefix"]);
  const seed = text(opts["seed"]);
  if (seed !== undefined && seed.trim() === "") throw invalid("--seed must be the path of a SQL file");
  return {
    yes: opts["yes"] === true,
    env: envPath === undefined ? undefined : checkEnvPath(envPath),
    key: key === undefined ? undefined : checkKey(key),
    prefix: prefix === undefined ? undefined : checkPrefix(prefix),
    seed,
    logicalReplication: opts["logicalReplication"] === true,
    ref,
    json: opts["json"] === true,
    apiHost: resolveApiHost(opts["apiHost"], env) ?? DEFAULT_CLAIM_API_HOST,
  };
}
