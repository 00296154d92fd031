/**
 * Policy schemas built from kind descriptors (`src/model/kinds/`): one zod schema per value rule,
 * with the messages users see.
 */
import * as z from "zod";
import type { FieldDescriptor, ValueOf } from "../../model/kinds/field.js";
import { describeValue } from "../issues.js";
import { boundedString, check, strictObject } from "./common.js";

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

/** The policy schema of one descriptor field. */
function fieldSchema(field: FieldDescriptor): z.ZodType {
  const { rule } = field;
  switch (rule.type) {
    case "boolean":
      return z.boolean();
    case "string":
      return rule.nonEmpty === true ? boundedString(1, Infinity) : z.string();
    case "integer":
      return integerAtLeast(rule.min);
    case "enum":
      return z.enum(rule.values);
    case "name-list":
      return nameListSchema(rule.what, field.policyKey);
  }
}

/** The policy shape of a descriptor's fields: policy key → optional schema of its value type. */
export type FieldsShape<F extends readonly FieldDescriptor[]> = { [D in F[number] as D["policyKey"]]: z.ZodOptional<z.ZodType<ValueOf<D["rule"]>>> };

/**
 * The strict policy schema of a kind's fields (every field optional: only declared keys are
 * managed), with the messages of docs/policy.md.
 */
export function fieldsSchema<const F extends readonly FieldDescriptor[]>(fields: F) {
  // The cast restates, key by key, the types the descriptor already gives each field.
  return strictObject(Object.fromEntries(fields.map((field) => [field.policyKey, fieldSchema(field).optional()])) as FieldsShape<F>);
}
