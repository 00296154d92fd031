/**
 * Evaluation limits: a policy is code, so its module top level and each call of
 * its branch closure run under a time limit and with `process.exit`/`process.abort` trapped.
 *
 * The limit is enforced in-process: the evaluation runs inside a one-line `vm` script with a
 * `timeout`, whose watchdog thread terminates the JavaScript running on this thread (a loop the
 * policy cannot catch), so the library itself guarantees it; no worker or subprocess is needed
 * and only plain synchronous calls are affected. Asynchronous work a policy leaves behind
 * (timers, promises) is not bounded: the loader evaluates synchronously and never waits for it.
 *
 * A policy (or a module it imports) that adds a property to `Object.prototype` while it runs
 * is refused, and the property removed: every object of the process would otherwise answer
 * for it (`Object.prototype.allowDataLoss = true` would read as an option that was never
 * given).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createContext, Script } from "node:vm";
import { ConfigLoadError, ErrorCode, PlatformError } from "../errors/index.js";
import type { BranchClosure } from "./policy-types.js";
import { restorePolicyLines } from "./policy-transform.js";
import { escapeUnsafeText } from "../rules/visible-text.js";

/** Which part of the policy (or of its checks file) was running. */
export type EvaluationPhase = "module" | "branch" | "check";

/** The default limit of one evaluation: 30 s. */
export const DEFAULT_EVALUATION_TIMEOUT_MS = 30_000;

/** The largest limit the watchdog accepts (about 24 days). */
const MAX_EVALUATION_TIMEOUT_MS = 2 ** 31 - 1;

const PHASE_TEXT: Readonly<Record<EvaluationPhase, string>> = Object.freeze({
  module: "module top level",
  branch: "branch closure",
  check: "check",
});

/** What a guarded evaluation needs to know. */
export interface EvaluationGuardOptions {
  /** The policy file, for messages (`the policy` when it was not loaded from a file). */
  file: string | undefined;
  phase: EvaluationPhase;
  /** @default {@link DEFAULT_EVALUATION_TIMEOUT_MS} */
  timeoutMs?: number;
}

/**
 * Checks an `evaluationTimeoutMs` option: a positive integer number of milliseconds.
 * @throws PlatformError `PLATFORM_INVALID_OPTIONS`.
 */
export function checkEvaluationTimeout(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_EVALUATION_TIMEOUT_MS) {
    throw new PlatformError(
      ErrorCode.INVALID_OPTIONS,
      `Invalid option evaluationTimeoutMs: must be a whole number of milliseconds from 1 to ${MAX_EVALUATION_TIMEOUT_MS} (got ${String(value)}).`,
      { details: { option: "evaluationTimeoutMs", value: String(value) } },
    );
  }
  return value;
}

const timeoutByPolicy = new WeakMap<object, number>();

/** Records the evaluation limit a policy was loaded with, for later calls of its closure. */
export function rememberEvaluationTimeout(policy: object, timeoutMs: number): void {
  timeoutByPolicy.set(policy, timeoutMs);
}

/** The evaluation limit `policy` was loaded with, or the default. */
export function evaluationTimeoutOf(policy: object): number {
  return timeoutByPolicy.get(policy) ?? DEFAULT_EVALUATION_TIMEOUT_MS;
}

/** Thrown inside the policy's call stack when it calls `process.exit` or `process.abort`. */
class ExitAttempt extends Error {}

let sandbox: { context: object; script: Script } | undefined;

/**
 * Runs `evaluate` (synchronous) under the time limit with process exits trapped.
 *
 * @throws ConfigLoadError (`PLATFORM_CONFIG_LOAD_FAILED`) naming the file and the phase when the
 * limit passes or the policy tries to end the process (even if it caught the trap's error);
 * errors `evaluate` throws otherwise pass through, their stacks showing the policy's own lines.
 */
export function runGuarded<T>(evaluate: () => T, options: EvaluationGuardOptions): T {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EVALUATION_TIMEOUT_MS;
  sandbox ??= { context: createContext({}), script: new Script("run()", { filename: "svc-config-evaluation-guard" }) };
  const { context, script } = sandbox;
  const { exit, abort } = process;
  let attempt: { call: string } | undefined;
  process.exit = ((code?: number | string | null) => {
    attempt = { call: `process.exit(${code === undefined ? "" : JSON.stringify(code)})` };
    throw new ExitAttempt("process.exit is not allowed while a policy is evaluated");
  }) as typeof process.exit;
  process.abort = (() => {
    attempt = { call: "process.abort()" };
    throw new ExitAttempt("process.abort is not allowed while a policy is evaluated");
  }) as typeof process.abort;
  const prototypeBefore = new Set(Reflect.ownKeys(Object.prototype));
  let result: T;
  try {
    (context as { run?: () => T }).run = evaluate;
    result = script.runInContext(context as never, { timeout: timeoutMs }) as T;
  } catch (err) {
    if (attempt !== undefined || err instanceof ExitAttempt) throw exitError(options, attempt?.call ?? "process.exit()", err);
    if (isTimeout(err)) throw timeoutError(options, timeoutMs, err);
    throw restorePolicyLines(err);
  } finally {
    (context as { run?: () => T }).run = undefined;
    process.exit = exit;
    process.abort = abort;
    const polluted = removeAddedKeys(prototypeBefore);
    // biome-ignore lint/correctness/noUnsafeFinally: a polluted prototype outranks whatever the evaluation threw.
    if (polluted.length > 0) throw pollutionError(options, polluted);
  }
  if (attempt !== undefined) throw exitError(options, attempt.call, undefined);
  return result;
}

/** The keys added to `Object.prototype` since `before`, removed where possible. */
function removeAddedKeys(before: ReadonlySet<PropertyKey>): string[] {
  const added = Reflect.ownKeys(Object.prototype).filter((key) => !before.has(key));
  for (const key of added) Reflect.deleteProperty(Object.prototype, key);
  return added.map((key) => (typeof key === "symbol" ? key.toString() : JSON.stringify(key)));
}

function pollutionError(options: EvaluationGuardOptions, keys: readonly string[]): ConfigLoadError {
  return new ConfigLoadError(
    `${where(options)} added ${keys.slice(0, 5).map((k) => escapeUnsafeText(k.length > 64 ? `${k.slice(0, 63)}…` : k)).join(", ")} to Object.prototype while being evaluated ` +
      "(prototype pollution, by the policy or a module it imports); every object would inherit it, so the policy is refused: remove the assignment or the dependency that makes it",
    { file: options.file ?? null, phase: options.phase, prototypeKeys: [...keys] },
  );
}

/** The exit attempt of the asynchronous evaluation whose continuation is running, if any. */
const asyncEvaluation = new AsyncLocalStorage<{ attempt?: string }>();

/** Open asynchronous evaluations, and the process's own exit functions while any is open. */
let asyncTrap: { depth: number; exit: typeof process.exit; abort: typeof process.abort } | undefined;

/**
 * Traps `process.exit`/`process.abort` for code running inside an asynchronous evaluation
 * (found through `AsyncLocalStorage`, so concurrent evaluations and the CLI's own exit are told
 * apart); anything else calls the real function. Returns the release; the last one restores.
 */
function trapAsyncExits(): () => void {
  if (asyncTrap === undefined) {
    const own = { depth: 0, exit: process.exit, abort: process.abort };
    asyncTrap = own;
    const trap = (call: string, real: () => never): never => {
      const running = asyncEvaluation.getStore();
      if (running === undefined) return real();
      running.attempt = call;
      throw new ExitAttempt(`${call} is not allowed while a policy check runs`);
    };
    process.exit = ((code?: number | string | null) => trap(`process.exit(${code === undefined ? "" : JSON.stringify(code)})`, () => own.exit(code))) as typeof process.exit;
    process.abort = (() => trap("process.abort()", () => own.abort())) as typeof process.abort;
  }
  const trap = asyncTrap;
  trap.depth += 1;
  return () => {
    trap.depth -= 1;
    if (trap.depth > 0) return;
    process.exit = trap.exit;
    process.abort = trap.abort;
    asyncTrap = undefined;
  };
}

/** Whether `value` has a callable `then`: a promise, or anything awaited as one. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * {@link runGuarded} for code that may return a promise (a policy check): the synchronous part,
 * and the returned thenable's `then`, run under the time limit as there; the promise must then
 * settle within what remains of it, while `process.exit`/`process.abort` stay trapped for its
 * continuations and `Object.prototype` is checked again once it settled. JavaScript that keeps
 * the thread busy after an `await` cannot be interrupted in-process: only waiting is bounded.
 *
 * @throws ConfigLoadError as {@link runGuarded} does, also when the promise does not settle in time.
 */
export async function runGuardedAsync<T>(evaluate: () => T | PromiseLike<T>, options: EvaluationGuardOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EVALUATION_TIMEOUT_MS;
  const started = Date.now();
  const state: { attempt?: string } = {};
  const prototypeBefore = new Set(Reflect.ownKeys(Object.prototype));
  const release = trapAsyncExits();
  let timer: NodeJS.Timeout | undefined;
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    const value = await asyncEvaluation.run(state, () => new Promise<T>((resolve, reject) => {
      const returnedValue = runGuarded(() => {
        const returned = evaluate();
        // A thenable's `then` is user code too: called here, under the limit.
        if (isThenable(returned)) returned.then(resolve as (v: unknown) => void, reject);
        return returned;
      }, options);
      if (!isThenable(returnedValue)) return resolve(returnedValue as T);
      timer = setTimeout(() => reject(timeoutError(options, timeoutMs, undefined)), Math.max(1, timeoutMs - (Date.now() - started)));
    }));
    outcome = { ok: true, value };
  } catch (err) {
    outcome = { ok: false, error: err };
  }
  clearTimeout(timer);
  release();
  // Once the evaluation settled: a polluted prototype or an exit attempt wins over what it returned or threw.
  const polluted = removeAddedKeys(prototypeBefore);
  if (polluted.length > 0) throw pollutionError(options, polluted);
  const error = outcome.ok ? undefined : outcome.error;
  if (state.attempt !== undefined || error instanceof ExitAttempt) throw exitError(options, state.attempt ?? "process.exit()", error);
  if (outcome.ok) return outcome.value;
  throw error instanceof ConfigLoadError ? error : restorePolicyLines(error);
}

/** `closure` with every call run by {@link runGuarded} in the `branch` phase. */
export function guardedClosure(closure: BranchClosure, options: { file: string | undefined; timeoutMs: number }): BranchClosure {
  return (target) => runGuarded(() => closure(target), { ...options, phase: "branch" });
}

function isTimeout(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}

function where(options: EvaluationGuardOptions): string {
  return `${options.file ?? "the policy"} (${PHASE_TEXT[options.phase]})`;
}

function timeoutError(options: EvaluationGuardOptions, timeoutMs: number, cause: unknown): ConfigLoadError {
  return new ConfigLoadError(
    `evaluating ${where(options)} did not finish within ${formatMs(timeoutMs)}; look for an endless loop or a blocking call, ` +
      "or raise the limit with the evaluationTimeoutMs option (CLI: --eval-timeout <seconds>)",
    { file: options.file ?? null, phase: options.phase, timeoutMs },
    cause,
  );
}

function exitError(options: EvaluationGuardOptions, call: string, cause: unknown): ConfigLoadError {
  return new ConfigLoadError(
    `${where(options)} called ${call} while being evaluated; a policy must not end the process: throw an error instead`,
    { file: options.file ?? null, phase: options.phase, call },
    cause,
  );
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
