/**
 * Policy schemas built from kind descriptors (`src/model/kinds/`): one zod schema per value rule,
 * with the messages users see.
 */
import * as z from "zod";
import { type FieldDescriptor, type ValueOf, type ValueRule, followsRule } from "../../model/kinds/field.js";
import { checkDuration, describeSeconds, formatDuration } from "../durations.js";
import { describeValue } from "../issues.js";
import { roleNameIssue } from "../../rules/pg-names.js";
import { boundedString, check, nameKey, strictObject } from "./common.js";

const integerAtLeast = (min: number) =>
  check(z.number(), (n) => Number.isSafeInteger(n) && n >= min, (n) => `must be an integer ≥ ${min} (got ${describeValue(n)})`);

/** A non-empty list of distinct, non-empty names; a repeat names both positions under `key`. */
function nameListSchema(what: string, key: string) {
  return z
    .array(boundedString(1, Infinity))
    .min(1, { error: `must list at least one ${what}` })
    .superRefine((names, ctx) => {
      for (const [index, name] of names.entries()) {
        const first = names.indexOf(name);
        if (first !== index) {
          ctx.addIssue({ code: "custom", path: [index], message: `${what} ${describeValue(name)} is listed twice: ${key}[${first}] and ${key}[${index}]` });
        }
      }
    });
}

type DurationRule = Extract<ValueRule, { type: "duration" }>;

/**
 * A duration (docs/policy.md#durations) within the rule's bounds, output in seconds; `false`
 * stands for `off.model` and `0` for itself when the rule says so.
 */
function durationSchema(rule: DurationRule) {
  return z.unknown().transform((value, ctx): number | null => {
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    const { off } = rule;
    if (off !== undefined) {
      if (value === false) return off.model;
      if (off.model === null && value === true) return fail(`must be a duration such as "7d", or false ${off.means} (got true)`);
      if (value === off.model) return fail(`${String(off.model)} is not accepted here; use false ${off.means}`);
    }
    if (rule.zero === true && value === 0) return 0;
    const read = checkDuration(value);
    if (!read.valid) return fail(read.message);
    if (read.seconds < rule.min) return fail(`must be at least ${describeSeconds(rule.min)} (got ${describeValue(value)})`);
    if (read.seconds > rule.max) return fail(`must be at most ${describeSeconds(rule.max)} (got ${describeValue(value)})`);
    return read.seconds;
  });
}

/** The policy schema of one descriptor field (its `policyRule` when the policy form differs). */
function fieldSchema(field: FieldDescriptor): z.ZodType {
  const rule = field.policyRule ?? field.rule;
  switch (rule.type) {
    case "boolean":
      return z.boolean();
    case "number":
      return z.number();
    case "string":
      return rule.nonEmpty === true ? boundedString(1, Infinity) : z.string();
    case "integer":
      return integerAtLeast(rule.min);
    case "enum":
      return z.enum(rule.values);
    case "name-list":
      return nameListSchema(rule.what, field.policyKey);
    case "number-in":
      return check(z.number(), (n) => rule.values.includes(n), (n) => `${describeValue(n)} ${rule.unit} is not an offered ${rule.what}; allowed: ${rule.allowed}`);
    case "duration":
      return durationSchema(rule);
    case "timestamp":
      return check(z.string(), (text) => followsRule(rule, text), () => "must be an RFC 3339 timestamp");
    case "role-name":
      return nameKey("role", roleNameIssue);
  }
}

/** The rule a field's policy form follows. */
type PolicyRuleOf<D extends FieldDescriptor> = D extends { policyRule: infer P extends ValueRule } ? P : D["rule"];

/** The policy shape of a descriptor's fields: policy key → optional schema of its (validated) value type. */
export type FieldsShape<F extends readonly FieldDescriptor[]> = { [D in F[number] as D["policyKey"]]: z.ZodOptional<z.ZodType<ValueOf<PolicyRuleOf<D>>>> };

/** The policy shape of a kind's fields, for a schema that adds keys of its own beside them. */
export function fieldsShape<const F extends readonly FieldDescriptor[]>(fields: F): FieldsShape<F> {
  // The cast restates, key by key, the types the descriptor already gives each field.
  return Object.fromEntries(fields.map((field) => [field.policyKey, fieldSchema(field).optional()])) as FieldsShape<F>;
}

/**
 * The strict policy schema of a kind's fields (every field optional: only declared keys are
 * managed), with the messages of docs/policy.md.
 */
export function fieldsSchema<const F extends readonly FieldDescriptor[]>(fields: F) {
  return strictObject(fieldsShape(fields));
}

/**
 * A model value in the form a policy writes it (what a pull writes): a duration as text such
 * as `"1h"`, the `off` value as `false`; `undefined` when the policy cannot state it (a value
 * outside the field's policy rule, which planning the pull then shows as a change).
 */
export function policyValueOf(field: FieldDescriptor, value: unknown): unknown {
  const rule = field.policyRule ?? field.rule;
  if (rule.type !== "duration") return followsRule(rule, value) ? value : undefined;
  if (rule.off !== undefined && value === rule.off.model) return false;
  if (rule.zero === true && value === 0) return 0;
  return followsRule(rule, value) && typeof value === "number" ? formatDuration(value) : undefined;
}
