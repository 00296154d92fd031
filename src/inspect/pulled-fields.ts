/** A record's fields as a pulled policy writes them, through its kind's descriptor. Pure. */
import { policyValueOf } from "../config/schemas/fields.js";
import { type FieldDescriptor, fromWire, sameFieldValue } from "../model/kinds/field.js";

/**
 * A wire record's pulled fields in the form a policy writes them (through the kind's
 * descriptor): values the policy cannot state, and values equal to the default, left out.
 */
export function pulledFields(fields: readonly FieldDescriptor[], record: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const values: Readonly<Partial<Record<string, unknown>>> = fromWire(fields, record);
  const out: Record<string, unknown> = {};
  for (const field of fields.filter((f) => f.pulled)) {
    const value = policyValueOf(field, values[field.modelKey]);
    if (value !== undefined && !sameFieldValue(field, value, defaults[field.modelKey])) out[field.policyKey] = value;
  }
  return out;
}
