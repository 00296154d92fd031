import { resolve } from "node:path";
import type { PlatformApi } from "../api/platform-api.js";
import { createPlatformApi } from "../api/create-platform-api.js";
import { DEFAULT_POLLING, DEFAULT_TIMEOUTS, type PlatformApiPolling, type PlatformApiTimeouts } from "../api/client-options.js";
import type { ResolvedFunctionConfig } from "../model/desired-state.js";
import { ErrorCode } from "../errors/codes.js";
import { CONCURRENCY_CEILING, IN_FLIGHT_CEILING, isConcurrency } from "../rules/concurrency.js";
import { PlatformError } from "../errors/platform-error.js";
import { optionDetailValue, shownOptionValue } from "../errors/option-value.js";
import type { EngineEvent } from "../model/events.js";
import { safeEmitter } from "./events.js";
import { ownRecord } from "../model/own-record.js";
import type { PushConfirmContext } from "../apply/gate-plan.js";
import type { Check } from "../model/checks.js";

/** Address patterns that narrow a plan (`targets` / `exclude` options). */
export interface SelectionOptions {
  /**
   * Plan only the changes whose address matches one of these patterns, plus every change they
   * depend on. `*` matches any run of characters: `function.api`, `trigger.*`. @default all
   */
  targets?: readonly string[];
  /** Leave out the changes whose address matches, and every change that depends on them. @default none */
  exclude?: readonly string[];
}
import { createFingerprinter, type Fingerprinter, parseFingerprintKey } from "./function-fingerprint.js";

/** Options of every operation. */
export interface ConfigOperationOptions {
  /** `^[a-z0-9-]{1,60}$`. */
  projectId: string;
  /** A branch id (not a name); the branch must exist. */
  branchId: string;
  /** Bearer API key; required unless `api` is given. */
  apiKey?: string;
  /** Non-production API host. @default the production API */
  apiHost?: string;
  /** A custom platform adapter (mainly for tests), used as is. */
  api?: PlatformApi;
  /** Cancels the operation: nothing new starts once it aborts. */
  signal?: AbortSignal;
  /** Progress events; the library never prints. */
  onEvent?: (event: EngineEvent) => void;
  /** Per attempt, upload, operation wait and build wait, in ms. @default 30 s, 120 s, 300 s, 600 s */
  timeouts?: Partial<PlatformApiTimeouts>;
  /** Tick of the watcher of operations and builds, ×1.5 per idle tick. @default 100 ms to 1000 ms */
  polling?: Partial<PlatformApiPolling>;
  /**
   * Keys the function fingerprints (HMAC): at least 32 random bytes as hex or base64 (CLI:
   * `SVC_FINGERPRINT_KEY`). Without it each distinct env value is hardened with scrypt once per
   * process. Changing it redeploys each function once, env-only. Never logged.
   */
  fingerprintKey?: string;
}

/** `plan` options. */
export interface PlanOptions extends ConfigOperationOptions, SelectionOptions {
  /** Replaces bundling for every function with finished ZIP bytes (canonicalised and checked). */
  bundleFunction?: (fn: ResolvedFunctionConfig) => Promise<Uint8Array>;
  /** Base directory of relative function sources. @default the policy file's directory */
  baseDir?: string;
  /** Bundles at once and in-flight executor requests at the start, 1–64. @default 8 */
  concurrency?: number;
  /**
   * In-flight requests grow from `concurrency` toward this while the platform answers without
   * 429/503/423 or rising latency, and halve on those; equal to `concurrency` turns adaptation
   * off. Integer from `concurrency` to 128. @default 128
   */
  maxConcurrency?: number;
  /** Permits deleting buckets that hold objects. @default false */
  allowDataLoss?: boolean;
  /**
   * A directory for the content-addressed bundle cache: an archive is reused while every file it
   * was built from (and the bundle options, esbuild's and svc-config's versions) is unchanged,
   * checked by re-hashing those files; a warm cache bundles nothing and never loads esbuild.
   * Archives are byte-identical with and without it. Relative paths resolve from the current
   * working directory. CLI: `node_modules/.cache/svc-config` beside the policy, `--no-cache`.
   * @default none: every function is bundled
   */
  cacheDir?: string;
  /**
   * Dry runs only: apply the plan to a local replica of what it read (an in-process emulator),
   * plan again there, and report `verification` on the result. @default false
   */
  verify?: boolean;
  /**
   * Permits function sources that are, or resolve through a symlink to, paths outside the
   * policy's directory (refused by default, naming the resolved path). @default false
   */
  allowSourcesOutsideProject?: boolean;
  /**
   * Policy checks (`defineCheck`, `loadChecksFromFile`) run over the plan once it is computed,
   * before any confirmation or mutation; their results are `result.checks`. On a dry run they
   * are only reported; otherwise a mandatory violation, or a check that fails, throws
   * `CheckFailedError` and nothing is changed. @default none
   */
  checks?: readonly Check[];
}

/** `apply` options. */
export interface ApplyOptions extends PlanOptions {
  /** Auto-confirm every override and destructive change. @default false */
  updateExisting?: boolean;
  /** Auto-confirm applying to a protected branch; consulted only with `confirm`. @default false */
  allowProtectedBranch?: boolean;
}

/** `pushConfig` options. */
export interface PushConfigOptions extends ApplyOptions {
  /** Evaluate the closure as if the branch did not exist (it must still exist). @default true */
  branchExists?: boolean;
  /** Called once before any mutation when confirmation is needed; `false` aborts. */
  confirm?: (context: PushConfirmContext) => boolean | Promise<boolean>;
  /** Plan only, no mutation. @default false */
  dryRun?: boolean;
}

/** The validated essentials every operation runs on. */
export interface OperationRuntime {
  api: PlatformApi;
  concurrency: number;
  emit: (event: EngineEvent) => void;
  signal?: AbortSignal;
  timing: { deploymentMs: number; pollInitialMs: number; pollMaxMs: number };
  /** Upper bound of the executor's adaptive in-flight limit. */
  maxConcurrency: number;
  /** The operation's fingerprint computer (keyed or hardened). */
  fingerprints: Fingerprinter;
  /** Whether function sources may lie outside the policy's directory. */
  allowSourcesOutsideProject: boolean;
  /** The bundle cache directory (`cacheDir`), absolute; absent without one. */
  cacheDir?: string;
}

const PROJECT_ID = /^[a-z0-9-]{1,60}$/;

/** Option groups that are plain records themselves, copied own-property like their parent. */
const NESTED_OPTIONS = ["timeouts", "polling"] as const;

/**
 * The caller's options as a null-prototype copy of their own enumerable properties (and of the
 * nested `timeouts` and `polling`), read once. Every public operation starts with it, so an
 * option the caller did not give reads as absent even when `Object.prototype` was polluted
 * (`Object.prototype.allowDataLoss = true` by a policy or a dependency), and a getter cannot
 * answer one check and then another. Functions and adapters (`api`, `confirm`, `onEvent`) are
 * kept by reference.
 */
export function ownOptions<T extends object>(options: T): T {
  if (typeof options !== "object" || options === null) return options;
  const copy = ownRecord(options);
  for (const key of NESTED_OPTIONS) {
    const nested = copy[key];
    if (typeof nested === "object" && nested !== null) copy[key] = ownRecord(nested);
  }
  return copy as T;
}


function invalid(option: string, value: unknown, why: string): never {
  throw new PlatformError(ErrorCode.INVALID_OPTIONS, `Invalid option ${option}: ${why} (got ${shownOptionValue(value)}).`, {
    details: { option, value: optionDetailValue(value) },
  });
}

/** Checks a project id. */
export function checkProjectId(projectId: unknown): string {
  if (typeof projectId !== "string" || !PROJECT_ID.test(projectId)) invalid("projectId", projectId, "use the project id: 1–60 characters of a–z, 0–9 and -");
  return projectId;
}

/** Checks a branch id: a non-empty string (an omitted one would otherwise reach a URL as "undefined"). */
export function checkBranchId(branchId: unknown): string {
  if (typeof branchId !== "string" || branchId.trim() === "") invalid("branchId", branchId, "pass the id of an existing branch (br-…)");
  return branchId;
}

/**
 * The default `maxConcurrency`: the cap on requests in flight, reached only while the platform
 * answers without throttling (measured against 32, 64 and 256 in docs/performance.md).
 */
const DEFAULT_MAX_CONCURRENCY = IN_FLIGHT_CEILING;


/**
 * Validates the options shared by every operation and builds the platform adapter. Throws
 * `PLATFORM_MISSING_API_KEY` without `apiKey` and `api`, `PLATFORM_INVALID_OPTIONS` for a
 * missing or malformed id, concurrency, timeout or cache directory; no I/O happens before. `target` says whether
 * the operation runs on an existing branch (`branchId` required) or only on the project
 * (`createBranch`).
 */
export function prepareRuntime(
  operation: string,
  options: Omit<PlanOptions, "branchId" | "projectId"> & { projectId: string; branchId?: string },
  target: "branch" | "project" = "branch",
): OperationRuntime {
  checkProjectId(options.projectId);
  if (target === "branch") checkBranchId(options.branchId);
  const concurrency = options.concurrency ?? 8;
  if (!isConcurrency(concurrency)) invalid("concurrency", concurrency, `must be an integer from 1 to ${CONCURRENCY_CEILING}`);
  const maxConcurrency = options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < concurrency || maxConcurrency > IN_FLIGHT_CEILING) {
    invalid("maxConcurrency", maxConcurrency, `must be an integer from concurrency (${concurrency}) to ${IN_FLIGHT_CEILING}`);
  }
  const timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
  for (const [name, value] of Object.entries(timeouts)) {
    if (typeof value !== "number" || !(value > 0)) invalid(`timeouts.${name}`, value, "must be a positive number of milliseconds");
  }
  const polling = { ...DEFAULT_POLLING, ...definedOnly(options.polling ?? {}) };
  const cacheDir = options.cacheDir;
  if (cacheDir !== undefined && (typeof cacheDir !== "string" || cacheDir.trim() === "" || cacheDir.includes("\0"))) {
    invalid("cacheDir", cacheDir, "must be a directory path (omit it for no bundle cache)");
  }
  const fingerprints = createFingerprinter(options.projectId, options.fingerprintKey === undefined ? undefined : parseFingerprintKey(options.fingerprintKey));
  const emit = safeEmitter(options.onEvent);
  let api = options.api;
  if (api === undefined) {
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new PlatformError(ErrorCode.MISSING_API_KEY, `${operation} needs an API key: pass apiKey (CLI: SVC_API_KEY) or an api adapter.`, {
        details: { operation },
      });
    }
    api = createPlatformApi({
      apiKey: options.apiKey,
      ...(options.apiHost === undefined ? {} : { apiHost: options.apiHost }),
      timeouts,
      polling,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  return {
    api,
    concurrency,
    maxConcurrency,
    emit,
    ...(options.signal ? { signal: options.signal } : {}),
    timing: { deploymentMs: timeouts.deploymentMs, pollInitialMs: polling.initialMs, pollMaxMs: polling.maxMs },
    fingerprints,
    allowSourcesOutsideProject: options.allowSourcesOutsideProject === true,
    ...(cacheDir === undefined ? {} : { cacheDir: resolve(cacheDir) }),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
