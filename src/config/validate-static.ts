/**
 * Validation of the static part of a policy (policy.md §2, §3, §13): every issue of the stage
 * with its path, never a raw `ZodError` or `TypeError`. A validated policy is a deeply frozen
 * copy whose parsed form is remembered, so later stages do not validate it again.
 */
import { ConfigValidationError, type ConfigIssue, type ConfigValidationContext } from "../errors/index.js";
import { crossSectionIssues, isRecord } from "./cross-checks.js";
import { deepFreeze, frozenCopy } from "./frozen-copy.js";
import { describeType, issuesFromZod, policyErrorMap } from "./issues.js";
import type { PolicyConfig } from "./policy-types.js";
import { reservedKeyIssues } from "./reserved-keys.js";
import { policySchema, type ParsedPolicy } from "./schemas/policy.js";

/** A validated policy: the frozen copy handed to users and its normalised parsed form. */
export interface StaticPolicy {
  config: PolicyConfig;
  parsed: ParsedPolicy;
}

const parsedByConfig = new WeakMap<object, ParsedPolicy>();

/**
 * Validates the static part of `value` and returns a deeply frozen copy (functions kept by
 * reference) with its parsed form. A value this function returned before is returned as is.
 *
 * @throws ConfigValidationError listing every issue.
 */
export function readStaticPolicy(value: unknown, context: ConfigValidationContext = {}): StaticPolicy {
  if (typeof value === "object" && value !== null) {
    const known = parsedByConfig.get(value);
    if (known !== undefined) return { config: value as PolicyConfig, parsed: known };
  }
  if (typeof value === "function") {
    throw new ConfigValidationError(
      [{ path: "", message: "is a function: pass an object; per-branch settings go under `branch`" }],
      context,
    );
  }
  if (!isRecord(value)) {
    throw new ConfigValidationError(
      [{ path: "", message: `must be an object such as defineConfig({ functions: { … } }) (got ${describeType(value)})` }],
      context,
    );
  }
  try {
    return validateRecord(value, context);
  } catch (err) {
    if (err instanceof ConfigValidationError) throw err;
    // A getter or proxy in the policy threw while it was being read.
    throw new ConfigValidationError([{ path: "", message: `could not be read: ${messageOf(err)}` }], context, err);
  }
}

function validateRecord(value: Record<string, unknown>, context: ConfigValidationContext): StaticPolicy {
  const result = policySchema.safeParse(value, { error: policyErrorMap });
  const issues = uniqueIssues([...(result.success ? [] : issuesFromZod(result.error.issues)), ...crossSectionIssues(value), ...reservedKeyIssues(value)]);
  if (!result.success || issues.length > 0) throw new ConfigValidationError(issues, context);
  const config = frozenCopy(value) as PolicyConfig;
  const parsed = deepFreeze(result.data);
  parsedByConfig.set(config, parsed);
  return { config, parsed };
}

function uniqueIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The message of a thrown value, for wrapping it. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "object" && err !== null && "message" in err && typeof err.message === "string") return err.message;
  return String(err);
}
