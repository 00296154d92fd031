/**
 * Deterministic fault injection and latency. Each rule has its own PRNG stream
 * derived from the fault seed and the rule's index, drawn once per matching request, so adding a
 * rule does not shift the others; the same seed, plan and request order inject the same faults.
 */
import { ErrorCode, PlatformError } from "../errors/index.js";
import { createSeededRandom, type RandomSource } from "./engine/random.js";

/** One fault rule (the programmatic form of a `--faults` rule). */
export interface FaultRule {
  kind: "status" | "reset" | "delay" | "opfail";
  /** `status` rules: 423, 429, 500, 502, 503 or 504. */
  status?: number;
  /** Probability per matching request, 0–1. @default 1 */
  rate?: number;
  /** Fire on exactly these 1-based matching requests instead of `rate`. */
  nth?: number[];
  /** Stop after this many injections. */
  times?: number;
  /** `Retry-After` seconds (429 defaults to 1). */
  retryAfterS?: number;
  /** `delay` rules: added latency in ms. */
  delayMs?: number;
  /** `before` (default): nothing executed. `after`: the mutation is applied, then the fault replaces the response. */
  phase?: "before" | "after";
  /** Only these methods (upper case). */
  methods?: string[];
  /** Glob over the request path: `*` one segment, `**` any number. */
  path?: string;
  /** `opfail` rules: only operations with this action. */
  action?: string;
}

/** A fault chosen for one request. */
export interface FaultHit {
  rule: number;
  kind: "status" | "reset" | "delay";
  status?: number;
  retryAfterS?: number;
  delayMs?: number;
  phase: "before" | "after";
}

/** The part of a fault engine a request middleware uses. */
export interface FaultSource {
  /** Latency to add before the request, in ms. */
  latencyMs(): number;
  /** The rules that fire for this request (each drawn once). */
  evaluate(method: string, path: string, requestId: string): FaultHit[];
}

/** What the fault rules decided for one request. */
export interface FaultVerdict {
  /** The fault that replaces the request: nothing runs. */
  before?: FaultHit;
  /** The fault applied once the request has run (a delay, a reset or an error response). */
  after?: FaultHit;
  /** `before` delays already waited out (the request then runs normally). */
  delayed: FaultHit[];
}

/** The response header naming the injected rules. */
export const FAULT_HEADER = "X-Emulator-Fault";

/** The part of a request's context {@link markInjected} writes: its response and its `fault` variable. */
export interface FaultMarkTarget {
  res: Response;
  set(key: "fault", value: string): void;
}

/**
 * Marks a response with every rule injected into its request, comma-separated, so the request
 * log names each one: a `before` delay, the fault that replaced the request, and an `after`
 * fault, including a reset after a committed mutation (whose response is never sent). The same
 * text goes in the context's `fault` variable, which the request log reads (reading the header
 * back would turn every answer's headers into a web `Headers`).
 */
export function markInjected(c: FaultMarkTarget, hits: readonly FaultHit[]): void {
  // Read in every case: when the request threw before it was answered, Hono builds the context's
  // answer here and rebuilds the error's answer from it, which the replica's in-memory answers expect.
  const { res } = c;
  if (hits.length === 0) return;
  const rules = hits.map((h) => String(h.rule)).join(",");
  res.headers.set(FAULT_HEADER, rules);
  c.set("fault", rules);
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Draws the faults of one request and waits out its latency and `before` delays, so every
 * middleware applies the rules in the same order.
 */
export async function drawFaults(faults: FaultSource, method: string, path: string, requestId: string): Promise<FaultVerdict> {
  const delay = faults.latencyMs();
  if (delay > 0) await sleep(delay);
  const hits = faults.evaluate(method, path, requestId);
  const delayed = hits.filter((h) => h.kind === "delay" && h.phase === "before");
  for (const hit of delayed) await sleep(hit.delayMs ?? 0);
  const before = hits.find((h) => h.phase === "before" && h.kind !== "delay");
  const after = hits.find((h) => h.phase === "after");
  return { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }), delayed };
}

/** One recorded injection. */
export interface InjectedFault {
  rule: number;
  kind: FaultRule["kind"];
  status?: number;
  phase: "before" | "after";
  method: string;
  path: string;
  requestId: string;
  at: string;
}

const STATUSES = new Set([423, 429, 500, 502, 503, 504]);
const AFTER_STATUSES = new Set([500, 502, 504]);

function invalid(message: string): PlatformError {
  return new PlatformError(ErrorCode.INVALID_OPTIONS, `invalid fault plan: ${message}`);
}

function probability(value: string, item: string, index: number): number {
  const p = Number(value);
  if (value.trim() === "" || !Number.isFinite(p) || p < 0 || p > 1) throw invalid(`rule ${index + 1}: ${item} needs a probability between 0 and 1`);
  return p;
}

function positiveInt(value: string, item: string, index: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw invalid(`rule ${index + 1}: ${item} needs a positive integer`);
  return n;
}

/** Parses a `--faults` plan (`status=503,rate=0.1;reset=0.02`) into rules; throws naming the bad rule. */
export function parseFaultPlan(plan: string): FaultRule[] {
  const rules: FaultRule[] = [];
  plan
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .forEach((text, index) => {
      const rule: Partial<FaultRule> = {};
      for (const item of text.split(",").map((s) => s.trim())) {
        const eq = item.indexOf("=");
        if (eq < 1) throw invalid(`rule ${index + 1} ("${text}"): "${item}" is not key=value`);
        const key = item.slice(0, eq);
        const value = item.slice(eq + 1);
        switch (key) {
          case "status":
            rule.kind = "status";
            rule.status = Number(value);
            break;
          case "reset":
            rule.kind = "reset";
            rule.rate = probability(value, item, index);
            break;
          case "delay":
            rule.kind = "delay";
            rule.delayMs = positiveInt(value, item, index);
            break;
          case "opfail":
            rule.kind = "opfail";
            rule.rate = probability(value, item, index);
            break;
          case "rate":
            rule.rate = probability(value, item, index);
            break;
          case "nth":
            rule.nth = value.split("|").map((n) => positiveInt(n, item, index));
            break;
          case "times":
            rule.times = positiveInt(value, item, index);
            break;
          case "retry_after":
            rule.retryAfterS = positiveInt(value, item, index);
            break;
          case "phase":
            if (value !== "before" && value !== "after") throw invalid(`rule ${index + 1}: phase must be before or after`);
            rule.phase = value;
            break;
          case "method":
            rule.methods = value.split("|").map((m) => m.toUpperCase());
            break;
          case "path":
            rule.path = value;
            break;
          case "action":
            rule.action = value;
            break;
          default:
            throw invalid(`rule ${index + 1} ("${text}"): unknown item "${key}" (status, reset, delay, opfail, rate, nth, times, retry_after, phase, method, path, action)`);
        }
      }
      if (rule.kind === undefined) throw invalid(`rule ${index + 1} ("${text}") names no fault: add status=, reset=, delay= or opfail=`);
      rules.push(rule as FaultRule);
    });
  validateFaultRules(rules);
  return rules;
}

/** Checks programmatic rules; `phase=after` only with reset, delay, 500, 502, 504 (those never promise "not applied"). */
export function validateFaultRules(rules: FaultRule[]): void {
  rules.forEach((rule, i) => {
    const name = `rule ${i + 1} (${rule.kind}${rule.status !== undefined ? ` ${rule.status}` : ""})`;
    if (rule.kind === "status" && (rule.status === undefined || !STATUSES.has(rule.status))) throw invalid(`${name}: status must be one of 423, 429, 500, 502, 503, 504`);
    if (rule.kind === "delay" && (rule.delayMs === undefined || rule.delayMs < 0)) throw invalid(`${name}: delay needs delayMs`);
    if (rule.rate !== undefined && (rule.rate < 0 || rule.rate > 1)) throw invalid(`${name}: rate must be between 0 and 1`);
    if (rule.phase === "after") {
      const ok = rule.kind === "reset" || rule.kind === "delay" || (rule.kind === "status" && AFTER_STATUSES.has(rule.status ?? 0));
      if (!ok) throw invalid(`${name}: phase=after is accepted only with reset, delay, 500, 502 and 504, because 423, 429 and 503 promise the request was not applied`);
    }
  });
}

/** Whether a glob (`*` one segment, `**` any) matches a path. */
export function matchPathGlob(glob: string, path: string): boolean {
  const pattern = glob
    .split("/")
    .map((seg) => (seg === "**" ? "\u0000" : seg.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")))
    .join("/")
    .replace(/\/?\u0000\/?/g, "(?:/.*)?/?");
  return new RegExp(`^${pattern}$`).test(path);
}

interface RuleState {
  rule: FaultRule;
  random: RandomSource;
  matches: number;
  injections: number;
}

/** The active fault plan and the latency source of one emulator. */
export class FaultEngine {
  private states: RuleState[] = [];
  private readonly once: FaultRule[] = [];
  private readonly log: InjectedFault[] = [];
  private latencyRandom: RandomSource;

  constructor(
    rules: FaultRule[],
    private seed: number,
    private readonly latency: [number, number],
  ) {
    this.latencyRandom = createSeededRandom(seed ^ 0x5bd1e995);
    this.set(rules, seed);
  }

  /** Replaces the plan (and optionally the seed). */
  set(rules: FaultRule[] | null, seed: number = this.seed): void {
    const list = rules ?? [];
    validateFaultRules(list);
    this.seed = seed;
    this.states = list.map((rule, i) => ({ rule, random: createSeededRandom((seed * 1000003 + i * 7919) >>> 0), matches: 0, injections: 0 }));
  }

  /** The active rules. */
  rules(): FaultRule[] {
    return this.states.map((s) => s.rule);
  }

  /** Adds a rule that fires on the next matching request only. */
  addOnce(rule: FaultRule): void {
    validateFaultRules([rule]);
    this.once.push(rule);
  }

  /** Every injection so far. */
  injected(): InjectedFault[] {
    return [...this.log];
  }

  /** Latency to add before a request, ms. */
  latencyMs(): number {
    const [min, max] = this.latency;
    if (max <= 0) return 0;
    return min + Math.floor(this.latencyRandom.next() * (max - min + 1));
  }

  /** The faults for one request (each matching rule draws once). */
  evaluate(method: string, path: string, requestId: string): FaultHit[] {
    const hits: FaultHit[] = [];
    const onceIndex = this.once.findIndex((rule) => rule.kind !== "opfail" && matches(rule, method, path));
    if (onceIndex >= 0) {
      const [rule] = this.once.splice(onceIndex, 1);
      if (rule !== undefined) hits.push(this.record(-1, rule, method, path, requestId));
    }
    this.states.forEach((state, index) => {
      const { rule } = state;
      if (rule.kind === "opfail" || !matches(rule, method, path)) return;
      if (this.fires(state)) hits.push(this.record(index, rule, method, path, requestId));
    });
    return hits;
  }

  /** Whether an operation with this action should end `failed`. */
  shouldFailOperation(action: string): boolean {
    let fail = false;
    this.states.forEach((state, index) => {
      const { rule } = state;
      if (rule.kind !== "opfail" || (rule.action !== undefined && rule.action !== action)) return;
      if (this.fires(state)) {
        fail = true;
        this.log.push({ rule: index, kind: "opfail", phase: "after", method: "-", path: action, requestId: "-", at: new Date().toISOString() });
      }
    });
    return fail;
  }

  private fires(state: RuleState): boolean {
    const { rule } = state;
    state.matches++;
    const draw = state.random.next();
    if (rule.times !== undefined && state.injections >= rule.times) return false;
    const fire = rule.nth !== undefined ? rule.nth.includes(state.matches) : draw < (rule.rate ?? 1);
    if (fire) state.injections++;
    return fire;
  }

  private record(index: number, rule: FaultRule, method: string, path: string, requestId: string): FaultHit {
    const phase = rule.phase ?? "before";
    this.log.push({ rule: index, kind: rule.kind, ...(rule.status !== undefined ? { status: rule.status } : {}), phase, method, path, requestId, at: new Date().toISOString() });
    return {
      rule: index,
      kind: rule.kind === "opfail" ? "delay" : rule.kind,
      ...(rule.status !== undefined ? { status: rule.status } : {}),
      ...(rule.retryAfterS !== undefined ? { retryAfterS: rule.retryAfterS } : rule.status === 429 ? { retryAfterS: 1 } : {}),
      ...(rule.delayMs !== undefined ? { delayMs: rule.delayMs } : {}),
      phase,
    };
  }
}

/**
 * Function invocations are matched on `/__functions/<branch id>/<slug><path>`. Only rules whose
 * `path` starts with that prefix reach them, so a plan written for the API keeps its random
 * streams and counts however many functions are called.
 */
export const INVOCATION_FAULT_PREFIX = "/__functions/";

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.methods !== undefined && !rule.methods.includes(method)) return false;
  if (path.startsWith(INVOCATION_FAULT_PREFIX) !== (rule.path?.startsWith(INVOCATION_FAULT_PREFIX) ?? false)) return false;
  return rule.path === undefined || matchPathGlob(rule.path, path);
}
