/**
 * `defineCheck` and the one validation of check definitions, shared by `defineCheck` and the
 * checks-file loader: each definition is read once into a frozen null-prototype copy (the policy
 * snapshot's rule: getters run once, Promises, Maps and class instances refused), its functions
 * kept by reference, every issue collected with its path.
 */
import { describeType, formatPath } from "../config/issues.js";
import { snapshotData } from "../config/snapshot.js";
import { ConfigValidationError, type ConfigIssue } from "../errors/index.js";
import type { Check, CheckDefinition } from "../model/checks.js";
import { unsafeCharacterIssue } from "../rules/visible-text.js";

const KEYS = new Set(["name", "description", "enforcement", "validateChange", "validatePlan"]);

/** Longest check name; a name is shown in every view. */
const MAX_NAME = 100;
const MAX_DESCRIPTION = 1_000;

function checkName(value: unknown, path: readonly PropertyKey[], issues: ConfigIssue[]): void {
  const at = formatPath([...path, "name"]);
  if (typeof value !== "string") return void issues.push({ path: at, message: `must be a string naming the check (got ${describeType(value)})` });
  if (value.trim() === "" || value.trim() !== value) return void issues.push({ path: at, message: "must be a non-empty name without surrounding spaces" });
  if (value.length > MAX_NAME) return void issues.push({ path: at, message: `must be at most ${MAX_NAME} characters (got ${value.length})` });
  const unsafe = unsafeCharacterIssue(value);
  if (unsafe !== null) issues.push({ path: at, message: unsafe });
}

/** The issues of one definition copy (already a snapshot) at `path`. */
function definitionIssues(def: Readonly<Record<string, unknown>>, path: readonly PropertyKey[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const key of Object.keys(def)) {
    if (!KEYS.has(key)) issues.push({ path: formatPath([...path, key]), message: `${JSON.stringify(key)} is not a key of a check (name, description, enforcement, validateChange, validatePlan)` });
  }
  checkName(def.name, path, issues);
  if (def.description !== undefined && (typeof def.description !== "string" || def.description.length > MAX_DESCRIPTION)) {
    issues.push({ path: formatPath([...path, "description"]), message: `must be a string of at most ${MAX_DESCRIPTION} characters` });
  }
  if (def.enforcement !== "advisory" && def.enforcement !== "mandatory") {
    issues.push({ path: formatPath([...path, "enforcement"]), message: `must be "advisory" or "mandatory" (got ${typeof def.enforcement === "string" ? JSON.stringify(def.enforcement.slice(0, 40)) : describeType(def.enforcement)})` });
  }
  for (const key of ["validateChange", "validatePlan"] as const) {
    if (def[key] !== undefined && typeof def[key] !== "function") issues.push({ path: formatPath([...path, key]), message: `must be a function (got ${describeType(def[key])})` });
  }
  if (def.validateChange === undefined && def.validatePlan === undefined) {
    issues.push({ path: formatPath(path), message: "needs validateChange, validatePlan or both" });
  }
  return issues;
}

/** Reads `value` as checks (one check or an array of them) into frozen copies, collecting every issue. */
export function readChecks(value: unknown, prefix: readonly PropertyKey[]): { checks: Check[]; issues: ConfigIssue[] } {
  const copied = snapshotData(value, prefix);
  if (!copied.ok) return { checks: [], issues: copied.issues };
  const list: readonly unknown[] = Array.isArray(copied.value) ? copied.value : [copied.value];
  const issues: ConfigIssue[] = [];
  const checks: Check[] = [];
  const names = new Map<string, number>();
  list.forEach((item, index) => {
    const path = Array.isArray(copied.value) ? [...prefix, index] : [...prefix];
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      issues.push({ path: formatPath(path), message: `must be a check made with defineCheck (got ${describeType(item)})` });
      return;
    }
    const def = item as Readonly<Record<string, unknown>>;
    const found = definitionIssues(def, path);
    issues.push(...found);
    if (typeof def.name === "string") {
      const first = names.get(def.name);
      if (first !== undefined) issues.push({ path: formatPath([...path, "name"]), message: `${JSON.stringify(def.name)} is also the name of check [${first}]; names must be unique` });
      else names.set(def.name, index);
    }
    if (found.length === 0) checks.push(def as unknown as Check);
  });
  return { checks, issues };
}

/**
 * Declares a policy check (docs/checks.md): `name`, `enforcement` (`"mandatory"` blocks apply,
 * `"advisory"` warns), an optional `description`, and `validateChange(change, ctx)` and/or
 * `validatePlan(plan, ctx)`, which call `ctx.report(message)` for each violation. Returns a
 * frozen copy; the functions are kept by reference.
 *
 * @throws ConfigValidationError (`PLATFORM_CONFIG_INVALID`) listing every issue with its path.
 */
export function defineCheck(definition: CheckDefinition): Check {
  // Issues are named from `defineCheck`, so a message about a checks file never reads as one about svc.ts.
  const { checks, issues } = readChecks(definition, ["defineCheck"]);
  const check = checks[0];
  if (issues.length > 0 || check === undefined || Array.isArray(definition)) {
    throw new ConfigValidationError(issues.length > 0 ? issues : [{ path: "", message: "defineCheck takes one check definition" }]);
  }
  return check;
}
