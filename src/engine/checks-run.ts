/**
 * Runs policy checks over a plan, after planning and before any confirmation or mutation. Each
 * call of a check runs under the evaluation guard of `svc.ts` (time limit, `process.exit`
 * trapped, `Object.prototype` watched); its context is a read-only copy, so a check that writes
 * to it throws, and nothing it does reaches the plan. A check that throws, rejects, times out or
 * ends the process has failed: a mandatory failure naming the check, never a crash.
 */
import { isThenable, runGuarded, runGuardedAsync } from "../config/evaluation-guard.js";
import { messageOf } from "../config/issues.js";
import { policyStackLocation } from "../config/policy-stack-location.js";
import { isPlatformError } from "../errors/platform-error.js";
import { ErrorCode } from "../errors/codes.js";
import { isBlockingCheck, type CheckResult, type CheckViolation } from "../model/check-result.js";
import type { Check, CheckContext, CheckPlan, CheckTarget, DeepReadonly, ReportOptions } from "../model/checks.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import type { PushResult } from "../model/plan.js";
import { checkOrigin } from "./checks-load.js";
import { readOnlyCopy } from "./read-only-copy.js";

/** What a check run reads: the plan of one branch and what it was computed from. */
export interface CheckInput {
  target: CheckTarget;
  policy: ResolvedPolicy;
  /** `null` for a branch not created yet. */
  live: LiveState | null;
  plan: Pick<PushResult, "projectId" | "branchId" | "branchName" | "changes" | "conflicts" | "unmanaged" | "warnings" | "summary">;
}

/** Longest message kept; the rest is counted. */
const MAX_MESSAGE = 2_000;
/** Most violations kept per check; the rest are counted in one last violation. */
const MAX_VIOLATIONS = 100;
const MAX_ADDRESS = 200;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Collects one check's violations while it runs; closed afterwards, so a late report is ignored. */
class Collector {
  readonly violations: CheckViolation[] = [];
  dropped = 0;
  misuse: string | undefined;
  open = true;

  report(message: unknown, options: unknown, fallback: string | undefined): void {
    if (!this.open) return;
    if (typeof message !== "string") {
      this.misuse ??= `report() takes a string message, not ${message === null ? "null" : typeof message}`;
      return;
    }
    const given = typeof options === "object" && options !== null ? (options as ReportOptions).address : undefined;
    if (given !== undefined && typeof given !== "string") {
      this.misuse ??= `report()'s address must be a string, not ${typeof given}`;
      return;
    }
    const address = given ?? fallback;
    if (this.violations.length >= MAX_VIOLATIONS) {
      this.dropped += 1;
      return;
    }
    this.violations.push({ ...(address === undefined ? {} : { address: cut(address, MAX_ADDRESS) }), message: cut(message, MAX_MESSAGE) });
  }

  close(): CheckViolation[] {
    this.open = false;
    return this.dropped === 0 ? this.violations : [...this.violations, { message: `… and ${this.dropped} more violation(s) (a check keeps at most ${MAX_VIOLATIONS})` }];
  }
}

/** Why a check failed, in one sentence, from what its call threw. */
function failureOf(err: unknown, file: string | undefined): string {
  if (isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)) {
    const details = err.details as { timeoutMs?: number; call?: string; prototypeKeys?: string[] };
    if (details.call !== undefined) return `called ${details.call}; a check must not end the process: report a violation or throw instead`;
    if (details.prototypeKeys !== undefined) return `added ${details.prototypeKeys.slice(0, 3).join(", ")} to Object.prototype; checks must not change shared prototypes`;
    if (details.timeoutMs !== undefined) return `did not finish within ${details.timeoutMs / 1000} s (the time limit of svc.ts and its checks: --eval-timeout)`;
  }
  const described = err instanceof Error ? `${safeName(err)}: ${messageOf(err)}` : typeof err === "string" ? JSON.stringify(err) : `a non-Error value (${messageOf(err)})`;
  const at = file === undefined ? undefined : policyStackLocation(file, err);
  return cut(`threw ${described}${at === undefined ? "" : ` at ${at}`}`, MAX_MESSAGE);
}

function safeName(err: Error): string {
  try {
    return typeof err.name === "string" && err.name !== "" ? err.name : "Error";
  } catch {
    return "Error";
  }
}

/** The copies every check of a run reads (frozen, so they are shared). */
function contextData(input: CheckInput): { target: Readonly<CheckTarget>; policy: DeepReadonly<ResolvedPolicy>; live: DeepReadonly<LiveState> | null; plan: CheckPlan } {
  const plan = readOnlyCopy({
    projectId: input.plan.projectId,
    branchId: input.plan.branchId,
    branchName: input.plan.branchName,
    changes: input.plan.changes,
    conflicts: input.plan.conflicts,
    unmanaged: input.plan.unmanaged,
    warnings: input.plan.warnings,
    summary: input.plan.summary,
  }) as CheckPlan;
  return {
    target: readOnlyCopy(input.target),
    policy: readOnlyCopy(input.policy) as DeepReadonly<ResolvedPolicy>,
    live: input.live === null ? null : (readOnlyCopy(input.live) as DeepReadonly<LiveState>),
    plan,
  };
}

async function runOne(check: Check, data: ReturnType<typeof contextData>): Promise<CheckResult> {
  const { file, timeoutMs } = checkOrigin(check);
  const collector = new Collector();
  let fallback: string | undefined;
  const ctx: CheckContext = Object.freeze({
    ...data,
    report: (message: string, options?: ReportOptions) => collector.report(message, options, fallback),
  });
  const guard = { file, phase: "check" as const, timeoutMs };
  let error: string | undefined;
  try {
    const { validateChange, validatePlan } = check;
    if (validateChange !== undefined) {
      // One guarded run calls validateChange for change after change (the time limit's watchdog
      // costs more than a typical call) until one returns a promise, which settles under the guard.
      const { changes } = data.plan;
      let next = 0;
      while (next < changes.length && collector.misuse === undefined) {
        const pending = runGuarded(() => {
          while (next < changes.length) {
            const change = changes[next] as (typeof changes)[number];
            next += 1;
            fallback = change.address;
            const returned = validateChange(change, ctx);
            if (isThenable(returned)) return returned;
            if (collector.misuse !== undefined) break;
          }
          return undefined;
        }, guard);
        if (pending !== undefined) await runGuardedAsync(() => pending, guard);
      }
    }
    fallback = undefined;
    if (validatePlan !== undefined && collector.misuse === undefined) await runGuardedAsync(() => validatePlan(data.plan, ctx), guard);
  } catch (err) {
    error = failureOf(err, file);
  }
  error ??= collector.misuse;
  const violations = collector.close();
  return { name: check.name, enforcement: error === undefined ? check.enforcement : "mandatory", violations, ...(error === undefined ? {} : { error }) };
}

/**
 * Runs every check over the plan in `input`, one after the other in the order given: for each,
 * `validateChange` per change in plan order, then `validatePlan`. Never throws for what a check
 * does; a failed check is a result with `error` and enforcement `mandatory`.
 */
export async function runChecks(checks: readonly Check[], input: CheckInput): Promise<CheckResult[]> {
  if (checks.length === 0) return [];
  const data = contextData(input);
  const results: CheckResult[] = [];
  for (const check of checks) results.push(await runOne(check, data));
  return results;
}

/** The checks that block apply: mandatory ones with a violation, and every check that failed. */
export function blockingChecks(results: readonly CheckResult[] | undefined): CheckResult[] {
  return (results ?? []).filter(isBlockingCheck);
}

/**
 * One result per check name from two runs over parts of one plan (a new branch's create, then
 * the rest): violations joined without repeats, a failure kept.
 */
export function mergeCheckResults(first: readonly CheckResult[], second: readonly CheckResult[] | undefined): CheckResult[] {
  const merged = new Map<string, CheckResult>(first.map((r) => [r.name, { ...r, violations: [...r.violations] }]));
  for (const r of second ?? []) {
    const seen = merged.get(r.name);
    if (seen === undefined) {
      merged.set(r.name, r);
      continue;
    }
    const key = (v: CheckViolation): string => JSON.stringify([v.address ?? null, v.message]);
    const known = new Set(seen.violations.map(key));
    for (const v of r.violations) if (!known.has(key(v))) seen.violations.push(v);
    if (seen.error === undefined && r.error !== undefined) merged.set(r.name, { ...seen, enforcement: "mandatory", error: r.error });
  }
  return [...merged.values()];
}
