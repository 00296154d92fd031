/** Wire schemas built from kind descriptors (`src/model/kinds/`): the emulator validates requests with them. */
import { z } from "zod";
import { type FieldDescriptor, type ValueOf, type ValueRule, followsRule } from "../../model/kinds/field.js";
import { PgNameSchema, TimestampSchema } from "./common.js";

/** The wire schema of one field: the descriptor's rule, so client and emulator agree with the policy. */
function settingSchema(rule: ValueRule): z.ZodType {
  switch (rule.type) {
    case "boolean":
      return z.boolean();
    case "number":
      return z.number();
    case "string":
      return rule.nonEmpty === true ? z.string().min(1) : z.string();
    case "integer":
      return z.number().int().min(rule.min);
    case "enum":
      return z.enum(rule.values);
    case "name-list":
      return z.array(z.string().min(1)).min(1);
    case "number-in":
      return z.number().refine((n) => rule.values.includes(n), `must be one of ${rule.allowed}`);
    case "duration": {
      const seconds = z.number().int().refine((n) => followsRule(rule, n), `must be ${rule.min}–${rule.max} seconds${rule.zero === true ? ", 0" : ""}${typeof rule.off?.model === "number" ? ` or ${rule.off.model}` : ""}`);
      return rule.off?.model === null ? seconds.nullable() : seconds;
    }
    case "timestamp":
      return rule.nullable === true ? TimestampSchema.nullable() : TimestampSchema;
    case "role-name":
      return PgNameSchema;
  }
}

/** The wire shape of a descriptor's fields: wire key → optional schema of its value type. */
export type WireFieldsShape<F extends readonly FieldDescriptor[]> = { [D in F[number] as D["wireKey"]]: z.ZodOptional<z.ZodType<ValueOf<D["rule"]>>> };

/** The request schema of a kind's fields in wire names (every field optional), from the descriptor's rules. */
export function wireFieldsSchema<const F extends readonly FieldDescriptor[]>(fields: F) {
  // The cast restates, key by key, the types the descriptor already gives each field.
  return z.object(Object.fromEntries(fields.map((field) => [field.wireKey, settingSchema(field.rule).optional()])) as WireFieldsShape<F>);
}
