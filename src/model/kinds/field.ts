/**
 * What a resource kind's descriptor says about one field: its names in each vocabulary, the
 * rule its values follow, how two values compare and what changing it costs. Every layer reads
 * this: the policy schema (`config/schemas/`), the wire schema and conversions (`api/`, the
 * inspector), the diff and the pull renderer. Plain data, no I/O.
 */
import type { ChangeClass } from "../plan.js";

/**
 * The values a field accepts. The policy schema builds its zod schema (with its messages) from
 * this, the wire schema its own, and values read back from the platform that break it are
 * ignored (docs/policy.md#data-api-settings).
 */
export type ValueRule =
  | { type: "boolean" }
  | { type: "string"; nonEmpty?: true }
  | { type: "integer"; min: number }
  | { type: "enum"; values: readonly [string, ...string[]] }
  /** A non-empty list of distinct, non-empty names (`what` names one in messages: `schema`). */
  | { type: "name-list"; what: string };

/** The TypeScript type of the values a rule accepts. */
export type ValueOf<R extends ValueRule> = R extends { type: "boolean" }
  ? boolean
  : R extends { type: "string" }
    ? string
    : R extends { type: "integer" }
      ? number
      : R extends { type: "enum"; values: readonly (infer V)[] }
        ? V
        : R extends { type: "name-list" }
          ? string[]
          : never;

/**
 * How a live value is compared with the desired one. `exact`: strict equality for scalars,
 * element by element **in order** for lists (the first of `dbSchemas` is the default schema).
 */
export type Comparison = "exact";

/** One field of a resource kind. */
export interface FieldDescriptor {
  /** The key in `svc.ts` (and in plan `fields`, `before`, `after`). */
  policyKey: string;
  /** The key in the normalised model (desired and live alike). */
  modelKey: string;
  /** The key on the platform's wire. */
  wireKey: string;
  rule: ValueRule;
  compare: Comparison;
  /** What a change of this field alone is: additive, override or destructive. */
  changeClass: ChangeClass;
  /** Whether `pullConfig` writes the live value into the pulled `svc.ts`. */
  pulled: boolean;
}

/** The model record of a kind's fields: model key → value type. */
export type ModelValues<F extends readonly FieldDescriptor[]> = { [D in F[number] as D["modelKey"]]: ValueOf<D["rule"]> };

/** Whether `value` (read from anywhere) follows `rule`. */
export function followsRule(rule: ValueRule, value: unknown): boolean {
  switch (rule.type) {
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string" && (rule.nonEmpty !== true || value !== "");
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value) && value >= rule.min;
    case "enum":
      return typeof value === "string" && rule.values.includes(value);
    case "name-list":
      return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v !== "") && new Set(value).size === value.length;
  }
}

/** Wire record → model record: known wire keys whose values follow their rule, in descriptor order. */
export function fromWire<F extends readonly FieldDescriptor[]>(fields: F, wire: Readonly<Record<string, unknown>>): Partial<ModelValues<F>> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = wire[field.wireKey];
    if (followsRule(field.rule, value)) out[field.modelKey] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return out as Partial<ModelValues<F>>;
}

/** Model record → wire record (undefined entries dropped), in descriptor order. */
export function toWire<F extends readonly FieldDescriptor[]>(fields: F, model: Readonly<Partial<Record<string, unknown>>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = model[field.modelKey];
    if (value !== undefined) out[field.wireKey] = value;
  }
  return out;
}

const CLASS_RANK: Readonly<Record<ChangeClass, number>> = { additive: 0, override: 1, destructive: 2 };

/** The class of a change to several fields: the most disruptive of theirs (`additive` for none). */
export function strongestClass(fields: readonly Pick<FieldDescriptor, "changeClass">[]): ChangeClass {
  return fields.reduce<ChangeClass>((worst, f) => (CLASS_RANK[f.changeClass] > CLASS_RANK[worst] ? f.changeClass : worst), "additive");
}
