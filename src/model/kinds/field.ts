/**
 * What a resource kind's descriptor says about one field: its names in each vocabulary, the
 * rule its values follow, how two values compare and what changing it costs. Every layer reads
 * this: the policy schema (`config/schemas/`), the wire schema and conversions (`api/`, the
 * inspector), the diff and the pull renderer. Plain data, no I/O.
 */
import { normalizeHostname } from "../../rules/hostname.js";
import { roleNameIssue } from "../../rules/pg-names.js";
import type { ChangeClass } from "../plan.js";
import { sameValue } from "../same-value.js";

/**
 * The values a field accepts. The policy schema builds its zod schema (with its messages) from
 * this, the wire schema its own, and values read back from the platform that break it are
 * ignored (docs/policy.md#data-api-settings).
 */
export type ValueRule =
  | { type: "boolean" }
  /** Any finite number: a value the platform reports as it is (the policy form may be stricter). */
  | { type: "number" }
  | { type: "string"; nonEmpty?: true }
  | { type: "integer"; min: number }
  | { type: "enum"; values: readonly [string, ...string[]] }
  /** A non-empty list of distinct, non-empty names (`what` names one in messages: `schema`). */
  | { type: "name-list"; what: string }
  /**
   * A number from a fixed set (compute sizes). Messages read
   * `<value> <unit> is not an offered <what>; allowed: <allowed>`.
   */
  | { type: "number-in"; values: readonly number[]; what: string; unit: string; allowed: string }
  /**
   * A duration, whole seconds in the model, within `[min, max]`; the policy writes seconds or
   * text such as `"7d"` (docs/policy.md#durations) and a pull writes it back as text (`"1h"`).
   * `off`: the policy's `false`, standing for `off.model` — `null` for "none" (then `true` gets a
   * hint), or the platform's sentinel number (such as -1, never), which the policy itself
   * refuses; `means` completes "false …" in messages. `zero`: `0` is accepted as itself (the
   * platform's default).
   */
  | { type: "duration"; min: number; max: number; off?: { model: null | number; means: string }; zero?: true }
  /** An RFC 3339 instant; `null` (none) too when `nullable`. */
  | { type: "timestamp"; nullable?: true }
  /** A PostgreSQL role name (`rules/pg-names.ts`: 1–63 bytes, not `pg_…`). */
  | { type: "role-name" };

/** The value type of each rule whose options do not change it. */
interface ValueTypes {
  boolean: boolean;
  number: number;
  string: string;
  integer: number;
  "name-list": string[];
  "number-in": number;
  duration: number;
  timestamp: string;
  "role-name": string;
}

/** The TypeScript type of the values a rule accepts (`null` too for a nullable one). */
export type ValueOf<R extends ValueRule> =
  | (R extends { type: "enum"; values: readonly (infer V)[] } ? V : R extends { type: infer T extends keyof ValueTypes } ? ValueTypes[T] : never)
  | (R extends { off: { model: null } } | { nullable: true } ? null : never);

/**
 * How a live value is compared with the desired one (`sameFieldValue`). `exact`: strict
 * equality for scalars, element by element **in order** for lists (the first of `dbSchemas` is
 * the default schema). `duration`: the normalised seconds (the model holds seconds, whatever the
 * policy wrote). `hostname`: case-insensitive, one trailing dot ignored. `set`: lists as sets
 * (order and repeats ignored).
 */
export type Comparison = "exact" | "duration" | "hostname" | "set";

/** One field of a resource kind. */
export interface FieldDescriptor {
  /** The key in `svc.ts` (and in plan `fields`, `before`, `after` unless `planKey` says otherwise). */
  policyKey: string;
  /** The key in plans when it is not the policy key (`ttl` is planned as the instant `expiresAt`). @default policyKey */
  planKey?: string;
  /** The key in the normalised model (desired and live alike). */
  modelKey: string;
  /** The key on the platform's wire. */
  wireKey: string;
  /** The values of the model (and the wire) form. */
  rule: ValueRule;
  /**
   * The rule of the policy form when the policy states the field otherwise than the model holds
   * it (`ttl`: a lifetime from creation, planned as the expiry instant `expiresAt`); the policy
   * schema reads it instead of `rule`.
   */
  policyRule?: ValueRule;
  compare: Comparison;
  /** What a change of this field alone is: additive, override or destructive. */
  changeClass: ChangeClass;
  /** Whether `pullConfig` writes the live value into the pulled `svc.ts`. */
  pulled: boolean;
  /** How the platform carries the field when not as the model value under `wireKey`. */
  wire?: WireForm;
}

/**
 * A field the platform carries in another form than its model value under `wireKey` (a role's
 * `login` is sent as `no_login` and read back from `authentication_method`). `wireKey` and the
 * rule still describe the request side.
 */
export interface WireForm {
  /** The model value a wire record holds, or undefined when it says nothing of it. */
  read(record: Readonly<Record<string, unknown>>): unknown;
  /** The wire entries that carry a model value (none when the platform's default is that value). */
  write(value: unknown): Record<string, unknown>;
}

/** The model record of a kind's fields: model key → value type. */
export type ModelValues<F extends readonly FieldDescriptor[]> = { [D in F[number] as D["modelKey"]]: ValueOf<D["rule"]> };

/** Whether `value` (read from anywhere) follows `rule`. */
export function followsRule(rule: ValueRule, value: unknown): boolean {
  switch (rule.type) {
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
      return typeof value === "string" && (rule.nonEmpty !== true || value !== "");
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value) && value >= rule.min;
    case "enum":
      return typeof value === "string" && rule.values.includes(value);
    case "name-list":
      return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v !== "") && new Set(value).size === value.length;
    case "number-in":
      return typeof value === "number" && rule.values.includes(value);
    case "duration":
      if (rule.off !== undefined && value === rule.off.model) return true;
      if (rule.zero === true && value === 0) return true;
      return typeof value === "number" && Number.isSafeInteger(value) && value >= rule.min && value <= rule.max;
    case "timestamp":
      return (rule.nullable === true && value === null) || (typeof value === "string" && !Number.isNaN(Date.parse(value)));
    case "role-name":
      return typeof value === "string" && roleNameIssue(value) === null;
  }
}

/** Whether two values of a field are the same by its comparison. */
export function sameFieldValue(field: Pick<FieldDescriptor, "compare">, a: unknown, b: unknown): boolean {
  switch (field.compare) {
    case "exact":
    case "duration":
      return sameValue(a, b);
    case "hostname":
      return typeof a === "string" && typeof b === "string" ? normalizeHostname(a) === normalizeHostname(b) : sameValue(a, b);
    case "set":
      return Array.isArray(a) && Array.isArray(b) ? sameMembers(a, b) && sameMembers(b, a) : sameValue(a, b);
  }
}

function sameMembers(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.every((x) => b.some((y) => sameValue(x, y)));
}

/** Wire record → model record: known wire keys whose values follow their rule, in descriptor order. */
export function fromWire<F extends readonly FieldDescriptor[]>(fields: F, wire: Readonly<Record<string, unknown>>): Partial<ModelValues<F>> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = field.wire === undefined ? wire[field.wireKey] : field.wire.read(wire);
    if (followsRule(field.rule, value)) out[field.modelKey] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return out as Partial<ModelValues<F>>;
}

/** Policy record (validated) → model record (undefined entries dropped), in descriptor order. */
export function fromPolicy<F extends readonly FieldDescriptor[]>(fields: F, policy: Readonly<Partial<Record<string, unknown>>> | undefined): Partial<ModelValues<F>> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = policy?.[field.policyKey];
    if (value !== undefined) out[field.modelKey] = value;
  }
  return out as Partial<ModelValues<F>>;
}

/** The key that names a field in plan `fields`, `before` and `after`. */
export function planKeyOf(field: Pick<FieldDescriptor, "policyKey" | "planKey">): string {
  return field.planKey ?? field.policyKey;
}

/** Model record → wire record (undefined entries dropped), in descriptor order. */
export function toWire<F extends readonly FieldDescriptor[]>(fields: F, model: Readonly<Partial<Record<string, unknown>>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = model[field.modelKey];
    if (value !== undefined) Object.assign(out, field.wire === undefined ? { [field.wireKey]: value } : field.wire.write(value));
  }
  return out;
}

const CLASS_RANK: Readonly<Record<ChangeClass, number>> = { additive: 0, override: 1, destructive: 2 };

/** The class of a change to several fields: the most disruptive of theirs (`additive` for none). */
export function strongestClass(fields: readonly Pick<FieldDescriptor, "changeClass">[]): ChangeClass {
  return fields.reduce<ChangeClass>((worst, f) => (CLASS_RANK[f.changeClass] > CLASS_RANK[worst] ? f.changeClass : worst), "additive");
}

/**
 * A field whose policy and model keys are the same, compared `exact` unless `options` says
 * otherwise, pulled unless `options.pulled` is `false`.
 */
export function defineField<const K extends string, const W extends string, const R extends ValueRule>(
  policyKey: K,
  wireKey: W,
  rule: R,
  changeClass: ChangeClass,
  options: { compare?: Comparison; pulled?: boolean } = {},
): FieldDescriptor & { policyKey: K; modelKey: K; wireKey: W; rule: R } {
  return { policyKey, modelKey: policyKey, wireKey, rule, compare: options.compare ?? "exact", changeClass, pulled: options.pulled ?? true };
}
