/**
 * Validation of the static part of a policy: every issue of the stage
 * with its path, never a raw `ZodError` or `TypeError`. The value is read once into a snapshot
 * (`snapshot.ts`) and everything after reads the snapshot; a validated policy is that frozen
 * snapshot, whose parsed form is remembered so later stages do not validate it again.
 */
import { ConfigValidationError, type ConfigIssue, type ConfigValidationContext } from "../errors/index.js";
import { crossSectionIssues } from "./cross-checks.js";
import { describeType, issuesFromZod, messageOf, policyErrorMap } from "./issues.js";
import type { PolicyKinds } from "./policy-kinds.js";
import type { PolicyConfig } from "./policy-types.js";
import type { ParsedPolicy } from "./schemas/policy.js";
import { describeExotic, frozenData, snapshotData } from "./snapshot.js";

/** A validated policy: the frozen snapshot handed to users and its normalised parsed form. */
export interface StaticPolicy {
  config: PolicyConfig;
  parsed: ParsedPolicy;
}

/**
 * Reads `value` once into a snapshot, validates its static part with the schema of `kinds` and
 * returns the snapshot with its parsed form. A value this function returned before for the same
 * kinds is returned as is.
 *
 * @throws ConfigValidationError listing every issue.
 */
export function readStaticPolicy(kinds: PolicyKinds, value: unknown, context: ConfigValidationContext = {}): StaticPolicy {
  if (typeof value === "object" && value !== null) {
    const known = kinds.validated.get(value);
    if (known !== undefined) return { config: value as PolicyConfig, parsed: known };
  }
  if (typeof value === "function") {
    throw new ConfigValidationError(
      [{ path: "", message: "is a function: pass an object; per-branch settings go under `branch`" }],
      context,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigValidationError(
      [{ path: "", message: `must be an object such as defineConfig({ functions: { … } }) (got ${describeType(value)})` }],
      context,
    );
  }
  const snapshot = snapshotData(value);
  if (!snapshot.ok) throw new ConfigValidationError(topLevelHint(value, snapshot.issues), context, snapshot.cause);
  return validateSnapshot(kinds, snapshot.value as Readonly<Record<string, unknown>>, context);
}

/** A Promise or a Map as the whole policy: say how the module should export it. */
function topLevelHint(value: object, issues: ConfigIssue[]): ConfigIssue[] {
  if (issues.length !== 1 || issues[0]?.path !== "" || !issues[0].message.includes("not plain data")) return issues;
  const what = safeDescribe(value);
  return [{ path: "", message: `is ${what}, not a policy object: export the policy object itself (await a value before defineConfig; an async function or a Promise is never evaluated as a policy)` }];
}

function safeDescribe(value: object): string {
  try {
    return describeExotic(value);
  } catch {
    return "an unreadable object";
  }
}

function validateSnapshot(kinds: PolicyKinds, snapshot: Readonly<Record<string, unknown>>, context: ConfigValidationContext): StaticPolicy {
  let parsed: ReturnType<ReturnType<PolicyKinds["schema"]>["safeParse"]>;
  let issues: ConfigIssue[];
  try {
    parsed = kinds.schema().safeParse(snapshot, { error: policyErrorMap });
    issues = uniqueIssues([...(parsed.success ? [] : issuesFromZod(parsed.error.issues)), ...crossSectionIssues(snapshot, kinds.policies, kinds.previewKeys)]);
  } catch (err) {
    // A custom bundler or closure is kept by reference; nothing else can throw here, but a
    // validation stage never lets an exception escape untyped.
    throw new ConfigValidationError([{ path: "", message: `could not be validated: ${messageOf(err)}` }], context, err);
  }
  if (!parsed.success || issues.length > 0) throw new ConfigValidationError(issues, context);
  const config = snapshot as PolicyConfig;
  const data = frozenData(parsed.data) as ParsedPolicy;
  kinds.validated.set(config, data);
  return { config, parsed: data };
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
