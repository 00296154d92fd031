/**
 * Evaluates the branch closure once and validates its result: a throw
 * or a promise becomes a `ConfigValidationError` on `branch` naming the branch (and, for a throw
 * in a loaded file, its `file:line:column`); tuning issues
 * carry paths starting with `branch.`.
 */
import { ConfigValidationError, ErrorCode, isPlatformError, type ConfigIssue, type ConfigValidationContext } from "../errors/index.js";
import { isRecord } from "./cross-checks.js";
import { formatPath, issuesFromZod, messageOf, policyErrorMap } from "./issues.js";
import type { BranchClosure } from "./policy-types.js";
import type { BranchTarget } from "../model/desired-state.js";
import { branchTuningSchema, type KindTuning, type ParsedBranchTuning, type ParsedFunctionTuning } from "./schemas/branch-tuning.js";
import { frozenData, snapshotData } from "./snapshot.js";
import type * as z from "zod";
import { policyStackLocation } from "./policy-stack-location.js";

/** The validated tuning and where its function overrides came from. */
export interface EvaluatedTuning {
  tuning: ParsedBranchTuning;
  /** The overrides by slug, from `functions` or the deprecated `preview.functions`. */
  functions: Readonly<Record<string, ParsedFunctionTuning>>;
  /** `branch.functions` or `branch.preview.functions`: the path prefix of `functions`. */
  functionsHome: readonly string[];
  /** The values of the keys kinds add, as the closure returned them (validated by each kind's schemas). */
  kindValues: Readonly<Record<string, unknown>>;
}

/**
 * Calls `closure` exactly once with `target` and validates the result against the declared
 * function slugs and the keys `kinds` add. `null`/`undefined` mean `{}`.
 *
 * @throws ConfigValidationError when the closure throws, returns a promise, or returns an
 * invalid tuning (every issue, paths under `branch.`).
 */
export function evaluateBranch(
  closure: BranchClosure | undefined,
  target: Readonly<BranchTarget>,
  declaredSlugs: readonly string[],
  context: ConfigValidationContext,
  kinds: readonly KindTuning[],
): EvaluatedTuning {
  const result = closure === undefined ? {} : callOnce(closure, target, context);
  // The closure's result is read once, like the policy: getters cannot answer twice.
  const snapshot = snapshotData(result ?? {}, ["branch"]);
  if (!snapshot.ok) throw new ConfigValidationError(snapshot.issues, context, snapshot.cause);
  const { raw, kindValues } = splitKindKeys(snapshot.value, kinds);
  const issues: ConfigIssue[] = [];
  let parsed: ReturnType<typeof branchTuningSchema.safeParse>;
  try {
    // Validated whole, so an unknown key's "did you mean" knows the kinds' keys too; the tuning's own keys are then parsed typed.
    parsed = branchTuningSchema.safeParse(raw, { error: policyErrorMap });
    const checked = kinds.length === 0 ? parsed : wholeTuningSchema(kinds).safeParse(snapshot.value, { error: policyErrorMap });
    const failed = checked.success ? (parsed.success ? [] : parsed.error.issues) : checked.error.issues;
    issues.push(...issuesFromZod(failed, ["branch"]));
    issues.push(...homeIssues(raw), ...undeclaredIssues(raw, declaredSlugs));
  } catch (err) {
    throw new ConfigValidationError([{ path: "branch", message: `the tuning could not be read: ${messageOf(err)}` }], context, err);
  }
  if (!parsed.success || issues.length > 0) throw new ConfigValidationError(issues, context);
  const tuning = frozenData(parsed.data);
  const fromPreview = tuning.functions === undefined && tuning.preview?.functions !== undefined;
  return {
    tuning,
    functions: (fromPreview ? tuning.preview?.functions : tuning.functions) ?? {},
    functionsHome: fromPreview ? ["branch", "preview", "functions"] : ["branch", "functions"],
    kindValues: frozenData(kindValues),
  };
}

const wholeSchemas = new WeakMap<readonly KindTuning[], z.ZodType>();

/** The tuning's schema with the keys `kinds` add, built once per list of kinds (zod compiles a schema on its first parses). */
function wholeTuningSchema(kinds: readonly KindTuning[]): z.ZodType {
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

function homeIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw) || raw.functions === undefined) return [];
  const preview = raw.preview;
  if (!isRecord(preview) || preview.functions === undefined) return [];
  return [
    {
      path: "branch.preview.functions",
      message: "declared both as `functions` and `preview.functions`; keep the top-level key",
    },
  ];
}

function undeclaredIssues(raw: unknown, declared: readonly string[]): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const homes: [string[], unknown][] = [
    [["branch", "functions"], raw.functions],
    [["branch", "preview", "functions"], isRecord(raw.preview) ? raw.preview.functions : undefined],
  ];
  const known = new Set(declared);
  return homes.flatMap(([home, overrides]) =>
    isRecord(overrides)
      ? Object.keys(overrides)
          .filter((slug) => !known.has(slug))
          .map((slug) => ({
            path: formatPath([...home, slug]),
            message: `tuning for undeclared function \`${slug}\`; declare it under \`functions\``,
          }))
      : [],
  );
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
