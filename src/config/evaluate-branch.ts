/**
 * Evaluates the branch closure once and validates its result: a throw
 * or a promise becomes a `ConfigValidationError` on `branch` naming the branch (and, for a throw
 * in a loaded file, its `file:line:column`); tuning issues
 * carry paths starting with `branch.`. Then resolves the kinds' keys of the tuning into their parts of the resolved policy.
 */
import { ConfigValidationError, ErrorCode, isPlatformError, type ConfigIssue, type ConfigValidationContext } from "../errors/index.js";
import { isRecord } from "./cross-checks.js";
import { issuesFromZod, messageOf, policyErrorMap } from "./issues.js";
import type { BranchClosure } from "./policy-types.js";
import type { BranchTarget, ResolvedPolicy } from "../model/desired-state.js";
import { branchTuningSchema, type KindTuning, type ParsedBranchTuning, type TuningContext } from "./schemas/branch-tuning.js";
import type { ParsedPolicy } from "./schemas/policy.js";
import type { DesiredSlices, KindResolvedFields } from "../kinds/index.js";
import { frozenData, snapshotData } from "./snapshot.js";
import type * as z from "zod";
import { policyStackLocation } from "./policy-stack-location.js";

/** The validated tuning: its own keys and those the kinds add, each parsed once by its schema. */
export interface EvaluatedTuning {
  tuning: ParsedBranchTuning;
  /** The values of the keys kinds add, parsed by their kinds' schemas (durations in seconds, defaults filled, …). */
  kindValues: Readonly<Record<string, unknown>>;
}

/**
 * Calls `closure` exactly once with `target` and validates the result: the tuning's own keys and
 * those `kinds` add, each kind's values checked against the static `policy` too. `null`/`undefined` mean `{}`.
 *
 * @throws ConfigValidationError when the closure throws, returns a promise, or returns an
 * invalid tuning (every issue, paths under `branch.`).
 */
export function evaluateBranch(
  closure: BranchClosure | undefined,
  target: Readonly<BranchTarget>,
  policy: ParsedPolicy,
  context: ConfigValidationContext,
  kinds: readonly KindTuning[],
): EvaluatedTuning {
  const result = closure === undefined ? {} : callOnce(closure, target, context);
  // The closure's result is read once, like the policy: getters cannot answer twice.
  const snapshot = snapshotData(result ?? {}, ["branch"]);
  if (!snapshot.ok) throw new ConfigValidationError(snapshot.issues, context, snapshot.cause);
  const issues: ConfigIssue[] = [];
  let parsed: ReturnType<z.ZodType["safeParse"]>;
  try {
    // Parsed whole and once, so an unknown key's "did you mean" knows the kinds' keys too.
    parsed = wholeTuningSchema(kinds).safeParse(snapshot.value, { error: policyErrorMap });
    if (!parsed.success) issues.push(...issuesFromZod(parsed.error.issues, ["branch"]));
    // The kinds' checks read their values as the closure returned them.
    const { kindValues } = splitKindKeys(snapshot.value, kinds);
    for (const kind of kinds) issues.push(...(kind.check?.(pickKeys(kindValues, kind.shape), policy) ?? []));
  } catch (err) {
    throw new ConfigValidationError([{ path: "branch", message: `the tuning could not be read: ${messageOf(err)}` }], context, err);
  }
  if (!parsed.success || issues.length > 0) throw new ConfigValidationError(issues, context);
  const { raw, kindValues } = splitKindKeys(parsed.data, kinds);
  return { tuning: frozenData(raw as ParsedBranchTuning), kindValues: frozenData(kindValues) };
}

/** The resolved policy's parts the tuning decides: the kinds' parts merged in their order, the tuning's `parent` first in `branch`. */
export interface ResolvedTuning {
  branch: ResolvedPolicy["branch"];
  fields?: Partial<KindResolvedFields>;
  kinds?: DesiredSlices;
  deprecatedKeys: string[];
  issues: ConfigIssue[];
}

/**
 * Resolves each kind's keys of `evaluated` (`kinds` in rank order) and merges their parts: `branch`
 * key by key, `fields` and `kinds` by name, deprecated keys and issues in turn.
 */
export function resolveTunings(kinds: readonly KindTuning[], evaluated: EvaluatedTuning, context: TuningContext): ResolvedTuning {
  const { parent } = evaluated.tuning;
  const merged: ResolvedTuning = { branch: parent === undefined ? {} : { parent }, deprecatedKeys: [], issues: [] };
  let fields: Partial<KindResolvedFields> | undefined;
  let slices: DesiredSlices | undefined;
  for (const kind of kinds) {
    const part = kind.resolve(pickKeys(evaluated.kindValues, kind.shape), context);
    Object.assign(merged.branch, part.branch);
    if (part.fields !== undefined) fields = { ...fields, ...part.fields };
    if (part.kinds !== undefined && Object.keys(part.kinds).length > 0) slices = { ...slices, ...part.kinds };
    merged.deprecatedKeys.push(...(part.deprecatedKeys ?? []));
    merged.issues.push(...(part.issues ?? []));
  }
  return { ...merged, ...(fields === undefined ? {} : { fields }), ...(slices === undefined ? {} : { kinds: slices }) };
}

/** The values of `shape`'s keys among `values`. */
function pickKeys(values: Readonly<Record<string, unknown>>, shape: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(shape, key)));
}

const wholeSchemas = new WeakMap<readonly KindTuning[], z.ZodType>();

/** The tuning's schema with the keys `kinds` add, built once per list of kinds (zod compiles a schema on its first parses). */
function wholeTuningSchema(kinds: readonly KindTuning[]): z.ZodType {
  if (kinds.length === 0) return branchTuningSchema;
  let schema = wholeSchemas.get(kinds);
  if (schema === undefined) {
    schema = branchTuningSchema.extend(Object.assign({}, ...kinds.map((kind) => kind.shape)));
    wholeSchemas.set(kinds, schema);
  }
  return schema;
}

/** The closure's result without the keys `kinds` add, and those keys' values. */
function splitKindKeys(value: unknown, kinds: readonly KindTuning[]): { raw: unknown; kindValues: Record<string, unknown> } {
  if (!isRecord(value)) return { raw: value, kindValues: {} };
  const kindKeys = new Set(kinds.flatMap((kind) => Object.keys(kind.shape)));
  const raw: Record<string, unknown> = {};
  const kindValues: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) Object.defineProperty(kindKeys.has(key) ? kindValues : raw, key, { value: v, enumerable: true, writable: true, configurable: true });
  return { raw, kindValues };
}

function callOnce(closure: BranchClosure, target: Readonly<BranchTarget>, context: ConfigValidationContext): unknown {
  let result: unknown;
  try {
    result = closure(target);
  } catch (err) {
    // An exceeded time limit or an exit attempt is a load failure of its own (evaluation-guard.ts).
    if (isPlatformError(err, ErrorCode.CONFIG_LOAD_FAILED)) throw err;
    const at = context.file === undefined ? undefined : policyStackLocation(context.file, err);
    throw new ConfigValidationError(
      [{ path: "branch", message: `the branch function failed for branch "${target.name}": ${messageOf(err)}${at === undefined ? "" : ` (at ${at})`}` }],
      context,
      err,
    );
  }
  if (isThenable(result)) {
    // The promise is not awaited; observe its rejection so it cannot crash the process.
    result.then(undefined, () => undefined);
    throw new ConfigValidationError(
      [
        {
          path: "branch",
          message: `the branch function returned a promise for branch "${target.name}"; it must be synchronous: compute asynchronous values before defineConfig and read them in the closure`,
        },
      ],
      context,
    );
  }
  return result;
}

/** Whether `value` is a promise; a `then` that cannot even be read (a throwing Proxy trap) is left to the snapshot, which names it. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false;
  }
}
