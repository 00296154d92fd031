import { homedir } from "node:os";
import { resolve } from "node:path";
import { evaluatePolicyModule } from "./evaluate-policy-module.js";
import { DEFAULT_EVALUATION_TIMEOUT_MS, checkEvaluationTimeout, rememberEvaluationTimeout } from "./evaluation-guard.js";
import { classifyPath, findPolicyFile } from "./find-policy-file.js";
import {
  conflictingExportsError,
  explicitPathError,
  invalidPolicyError,
  isValidationError,
  noPolicyExportError,
  policyNotFoundError,
  searchStartError,
} from "./load-config-errors.js";
import { rememberPolicyFile } from "./policy-origin.js";
import type { PolicyConfig } from "./policy-types.js";
import { ownRecord } from "../model/own-record.js";

export type { PolicySearchStopReason } from "./find-policy-file.js";

/** Where to find the policy file. */
export interface LoadConfigFromFileOptions {
  /** The policy file, absolute or relative to `cwd`. When given, nothing is searched. */
  path?: string;
  /** Where the search starts, and what a relative `path` is resolved against. @default process.cwd() */
  cwd?: string;
  /**
   * The search never goes above this directory (relative paths are resolved against `cwd`).
   * Only a ceiling for searches that start inside it. @default os.homedir()
   */
  stopAt?: string;
  /**
   * Time limit of one evaluation of the policy, in ms: its module top level here, and each later
   * call of its branch closure. Past it, `ConfigLoadError` names the file and the phase.
   * @default 30000
   */
  evaluationTimeoutMs?: number;
}

/** A loaded and validated policy. */
export interface LoadConfigFromFileResult {
  /** The validated policy, remembered as coming from `resolvedPath` (for `resolvePolicy`). */
  config: PolicyConfig;
  /** Absolute path of the policy file that was evaluated. */
  resolvedPath: string;
}

/**
 * Finds, evaluates and validates a policy file (docs/policy.md#loading).
 *
 * Without `path`, looks for `svc.ts`, `svc.mts`, `svc.js`, `svc.mjs` (in that order) in `cwd`
 * and then each parent directory, stopping after a directory that contains `.git`, at `stopAt`
 * and at the filesystem root. Every call evaluates the file and its local imports afresh, so a
 * long-running process sees edits. The module's default export (or its `config` export) is
 * validated like `defineConfig`. Reads no environment variables itself; every jiti option is
 * explicit, so `JITI_*` variables change nothing.
 *
 * @throws ConfigLoadError (`PLATFORM_CONFIG_LOAD_FAILED`) when no file is found, the file fails
 * to evaluate, exports no policy, or exports an invalid one (then the `ConfigValidationError`
 * is the `cause` and its issues are in `details.issues`), when evaluating takes longer than
 * `evaluationTimeoutMs`, or when the policy calls `process.exit`/`process.abort` (the process
 * never ends: the call throws inside the policy and the load fails naming the file).
 */
export async function loadConfigFromFile(given: LoadConfigFromFileOptions = {}): Promise<LoadConfigFromFileResult> {
  const options: LoadConfigFromFileOptions = ownRecord(given);
  const timeoutMs = checkEvaluationTimeout(options.evaluationTimeoutMs ?? DEFAULT_EVALUATION_TIMEOUT_MS);
  const file = locatePolicyFile(options);
  const exports = await evaluatePolicyModule(file, { timeoutMs });
  const value = selectPolicyExport(exports, file);
  // The package's own `validatePolicy` (bound to its kinds), which the policy's `defineConfig` shares.
  const { validatePolicy } = await import("../v1.js");
  let config: PolicyConfig;
  try {
    config = validatePolicy(value, { file });
  } catch (err) {
    if (isValidationError(err)) throw invalidPolicyError(file, err);
    throw err;
  }
  rememberPolicyFile(config, file);
  rememberEvaluationTimeout(config, timeoutMs);
  return { config, resolvedPath: file };
}

function locatePolicyFile(options: LoadConfigFromFileOptions): string {
  const cwd = resolve(options.cwd ?? process.cwd());
  if (options.path !== undefined) {
    const file = resolve(cwd, options.path);
    const kind = classifyPath(file);
    if (kind !== "file") throw explicitPathError({ path: options.path, cwd, file, kind });
    return file;
  }
  if (classifyPath(cwd) !== "directory") throw searchStartError(cwd);
  const stopAt = resolve(cwd, options.stopAt ?? homedir());
  const result = findPolicyFile({ startDir: cwd, stopAt });
  if (!result.found) throw policyNotFoundError(result);
  return result.file;
}

/**
 * Picks the policy value from a module's exports (docs/policy.md#the-policy-file): `default`, or `config`; both
 * only when they are the same object. A CommonJS module (`module.exports = {...}`) without
 * either name is its own default export, as Node's `import` treats it.
 */
function selectPolicyExport(exports: unknown, file: string): unknown {
  if ((typeof exports !== "object" && typeof exports !== "function") || exports === null) {
    throw noPolicyExportError(file);
  }
  const named = exports as { default?: unknown; config?: unknown };
  const fromDefault = Object.hasOwn(named, "default") ? named.default : undefined;
  const fromConfig = Object.hasOwn(named, "config") ? named.config : undefined;
  if (fromDefault !== undefined && fromConfig !== undefined && fromDefault !== fromConfig) {
    throw conflictingExportsError(file);
  }
  const chosen = fromDefault ?? fromConfig ?? commonJsExports(exports);
  if (chosen === undefined) throw noPolicyExportError(file);
  return chosen;
}

/**
 * The `module.exports` value of a CommonJS module that assigned one, or `undefined` for an ES
 * module (transpiled, so marked `__esModule`) or a module that exported nothing.
 */
function commonJsExports(exports: object): unknown {
  if (Object.hasOwn(exports, "__esModule")) return undefined;
  return typeof exports === "function" || Object.keys(exports).length > 0 ? exports : undefined;
}
