/**
 * Schema of the static part of a policy (every top-level key but the closure's result), assembled
 * from the kinds' parts (`KindPolicy`): their keys in their order, then `prune` (their flags),
 * `hooks`, `branch` and `preview` (their deprecated homes).
 */
import * as z from "zod";
import { describeType } from "../issues.js";
import type { BranchClosure } from "../policy-types.js";
import { strictObject } from "./common.js";
import { hooksSchema } from "./hooks.js";
import type { KindPolicy, PruneFlag } from "./kind-policy.js";
import { pruneSchemaOf } from "./prune.js";

/** `branch`: a function `(target) => tuning`. */
const branchClosureSchema = z.custom<BranchClosure>((value) => typeof value === "function", {
  error: (issue) => `must be a function (target) => tuning (got ${describeType(issue.input)})`,
});

/** The top-level keys the policy has whatever its kinds. */
const GENERIC_KEYS = ["prune", "hooks", "branch", "preview"];

/** A key or flag a kind may add: an identifier, none of the generic keys and no name `Object.prototype` has (`__proto__`, `constructor`, …). */
const KIND_KEY = /^[a-z][A-Za-z0-9]*$/;

function isKindKey(key: string): boolean {
  return KIND_KEY.test(key) && !GENERIC_KEYS.includes(key) && !(key in Object.prototype);
}

/** The static part of a list of kinds: its top-level keys, their deprecated homes and the prune flags, each in order. */
export interface StaticParts {
  /** Every kind's top-level key with its schema, in the policy's order. */
  readonly keys: readonly (readonly [string, z.ZodType])[];
  /** The keys with a deprecated home under `preview`, in `preview`'s order. */
  readonly previewKeys: readonly string[];
  /** The prune flags, in `prune`'s order. */
  readonly pruneFlags: readonly PruneFlag[];
  /** Every top-level key of the policy in the schema's order (the order a pulled `svc.ts` writes them in). */
  readonly keyOrder: readonly string[];
}

/**
 * The static parts of `kinds` in order (ties keep the list's order).
 *
 * @throws Error when two kinds state the same key or flag, a key is not an identifier or is a
 * generic key, or a deprecated home names a key its kind does not have: a defect of the kinds.
 */
export function staticPartsOf(kinds: readonly KindPolicy[]): StaticParts {
  const byOrder = <T extends { order?: number }>(a: T, b: T) => (a.order ?? 0) - (b.order ?? 0);
  const keys = kinds.filter((kind) => kind.keys !== undefined).sort(byOrder).flatMap((kind) => Object.entries(kind.keys ?? {}));
  const preview = kinds
    .flatMap((kind) => Object.entries(kind.preview ?? {}).map(([key, order]) => ({ key, order, owned: Object.hasOwn(kind.keys ?? {}, key) })))
    .sort(byOrder);
  const pruneFlags = kinds.flatMap((kind) => (kind.prune === undefined ? [] : [kind.prune])).sort(byOrder);
  const names = [...keys.map(([key]) => key), ...GENERIC_KEYS];
  const invalid = keys.map(([key]) => key).filter((key) => !isKindKey(key));
  const orphan = preview.filter((home) => !home.owned).map((home) => `preview.${home.key}`);
  const flags = pruneFlags.map((flag) => flag.flag);
  const defects = [...invalid, ...orphan, ...repeated(names), ...repeated(flags).map((flag) => `prune.${flag}`), ...flags.filter((flag) => !isKindKey(flag)).map((flag) => `prune.${flag}`)];
  if (defects.length > 0) throw new Error(`the kinds' static policy is inconsistent at ${defects.join(", ")}`);
  return { keys, previewKeys: preview.map((home) => home.key), pruneFlags, keyOrder: names };
}

function repeated(names: readonly string[]): string[] {
  return names.filter((name, index) => names.indexOf(name) !== index);
}

/** The strict schema of the static part with `parts`' keys, deprecated homes and prune flags. */
export function policySchemaOf(parts: StaticParts) {
  const schemaOf = new Map(parts.keys);
  const optional = (key: string): [string, z.ZodType] => [key, (schemaOf.get(key) ?? z.never()).optional()];
  const previewSchema = strictObject(Object.fromEntries(parts.previewKeys.map(optional)), `{ ${parts.previewKeys.map((key) => `${key}?`).join(", ")} }`);
  return strictObject(
    {
      ...Object.fromEntries(parts.keys.map(([key]) => optional(key))),
      prune: pruneSchemaOf(parts.pruneFlags).optional(),
      hooks: hooksSchema.optional(),
      branch: branchClosureSchema.optional(),
      preview: previewSchema.optional(),
    },
    "an object",
  );
}

/**
 * The validated, normalised static part (booleans expanded, hostnames normalised, cron
 * collapsed): each kind's keys (read by its `resolve`), the prune flags and the generic keys.
 */
export type ParsedPolicy = {
  readonly [key: string]: unknown;
  readonly prune?: Readonly<Record<string, boolean | undefined>>;
  readonly hooks?: z.output<typeof hooksSchema>;
  readonly branch?: BranchClosure;
  readonly preview?: { readonly [key: string]: unknown };
};
