/**
 * `loadChecksFromFile`: a checks file is code, evaluated exactly as `svc.ts` is (the policy
 * loader's `evaluatePolicyModule`: fresh, with the time limit and `process.exit` trapped), and
 * its export is read once by the snapshot rule (`checks-define.ts`).
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { evaluatePolicyModule } from "../config/evaluate-policy-module.js";
import { DEFAULT_EVALUATION_TIMEOUT_MS, checkEvaluationTimeout } from "../config/evaluation-guard.js";
import { classifyPath } from "../config/find-policy-file.js";
import { ConfigLoadError, type ConfigIssue } from "../errors/index.js";
import type { Check } from "../model/checks.js";
import { ownRecord } from "../model/own-record.js";
import { readChecks } from "./checks-define.js";

/** The names a checks file beside the policy may have, in the order they are looked for. */
export const CHECKS_FILE_NAMES = ["svc.checks.ts", "svc.checks.mts", "svc.checks.js", "svc.checks.mjs"] as const;

/** Where to find the checks. */
export interface LoadChecksFromFileOptions {
  /** The checks file, absolute or relative to `cwd`. When given, it must exist. */
  path?: string;
  /** Without `path`: the policy file whose directory holds `svc.checks.ts` (`.mts`, `.js`, `.mjs`), if any. */
  policyPath?: string;
  /** What relative paths are resolved against. @default process.cwd() */
  cwd?: string;
  /** Time limit of the module's top level and of each later call of a check, in ms. @default 30000 */
  evaluationTimeoutMs?: number;
}

/** Loaded checks. */
export interface LoadChecksFromFileResult {
  /** The checks in export order; `[]` when no file was found. */
  checks: Check[];
  /** The checks file evaluated; absent when there was none beside the policy. */
  resolvedPath?: string;
}

/** Where each loaded check came from and its time limit, for the runner. */
const origins = new WeakMap<Check, { file: string; timeoutMs: number }>();

/** The file and time limit a check was loaded with (`defineCheck` in code: none, the default limit). */
export function checkOrigin(check: Check): { file: string | undefined; timeoutMs: number } {
  const origin = origins.get(check);
  return { file: origin?.file, timeoutMs: origin?.timeoutMs ?? DEFAULT_EVALUATION_TIMEOUT_MS };
}

function locate(options: LoadChecksFromFileOptions): string | undefined {
  const cwd = resolve(options.cwd ?? process.cwd());
  if (options.path !== undefined) {
    const file = resolve(cwd, options.path);
    const kind = classifyPath(file);
    if (kind !== "file") {
      const what = { missing: "does not exist", directory: "is a directory", other: "is not a regular file (a FIFO, socket or device)" }[kind];
      throw new ConfigLoadError(`checks file ${file} ${what}; pass the path of an existing checks file (CLI: --checks FILE), or omit it to use svc.checks.ts beside svc.ts`, { file, path: options.path, cwd, problem: kind });
    }
    return file;
  }
  if (options.policyPath === undefined) return undefined;
  const dir = dirname(resolve(cwd, options.policyPath));
  for (const name of CHECKS_FILE_NAMES) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    const kind = classifyPath(file);
    if (kind === "file") return file;
    throw new ConfigLoadError(`checks file ${file} ${kind === "directory" ? "is a directory" : "is not a regular file (a FIFO, socket or device)"}; svc reads the checks beside svc.ts from a regular file: replace it, or pass --checks FILE`, { file, problem: kind === "missing" ? "missing" : kind });
  }
  return undefined;
}

/** The checks a module exports: `default`, or `checks`; both only when they are the same value. */
function selectChecksExport(exports: unknown, file: string): unknown {
  const named = (typeof exports === "object" || typeof exports === "function") && exports !== null ? (exports as Record<string, unknown>) : {};
  const fromDefault = Object.hasOwn(named, "default") ? named.default : undefined;
  const fromChecks = Object.hasOwn(named, "checks") ? named.checks : undefined;
  if (fromDefault !== undefined && fromChecks !== undefined && fromDefault !== fromChecks) {
    throw new ConfigLoadError(`${file} exports both a default export and checks, and they differ; export the checks once`, { file });
  }
  const chosen = fromDefault ?? fromChecks;
  if (chosen === undefined) {
    throw new ConfigLoadError(`${file} exports no checks; end it with export default [defineCheck({ … }), …] (defineCheck from "svc-config/v1")`, { file });
  }
  return chosen;
}

/**
 * Finds, evaluates and validates a checks file (docs/checks.md): `path`, else `svc.checks.ts`
 * (`.mts`, `.js`, `.mjs`) beside `policyPath`, else none (`checks: []`). The module's default
 * export (or `checks` export) is one check or an array of them, made with `defineCheck` or
 * plain objects of the same shape.
 *
 * @throws ConfigLoadError (`PLATFORM_CONFIG_LOAD_FAILED`) when the named file is missing or not a
 * regular file, fails to evaluate, exceeds the time limit, calls `process.exit`, or exports no
 * checks or invalid ones (every issue in `details.issues`).
 */
export async function loadChecksFromFile(given: LoadChecksFromFileOptions = {}): Promise<LoadChecksFromFileResult> {
  const options: LoadChecksFromFileOptions = ownRecord(given);
  const timeoutMs = checkEvaluationTimeout(options.evaluationTimeoutMs ?? DEFAULT_EVALUATION_TIMEOUT_MS);
  const file = locate(options);
  if (file === undefined) return { checks: [] };
  const exports = await evaluatePolicyModule(file, { timeoutMs });
  const { checks, issues } = readChecks(selectChecksExport(exports, file), []);
  if (issues.length > 0) throw invalidChecksError(file, issues);
  for (const check of checks) origins.set(check, { file, timeoutMs });
  return { checks, resolvedPath: file };
}

function invalidChecksError(file: string, issues: readonly ConfigIssue[]): ConfigLoadError {
  const lines = issues.map((i) => `  - ${i.path === "" ? "(checks)" : i.path}: ${i.message}`);
  return new ConfigLoadError([`Invalid checks in ${file}:`, ...lines].join("\n"), { file, issues: issues.map((i) => ({ ...i })) });
}
