/**
 * What validating and resolving a policy need of a list of kinds (`kinds/list.ts` binds the
 * registry's): their static parts (`KindPolicy`), their keys of the branch tuning (`KindTuning`),
 * the schema of the static part they make, built on first use, and the policies validated with it.
 */
import type { KindTuning } from "./schemas/branch-tuning.js";
import type { KindPolicy } from "./schemas/kind-policy.js";
import { type ParsedPolicy, type StaticParts, policySchemaOf, staticPartsOf } from "./schemas/policy.js";

/** The policy stages of a list of kinds. */
export interface PolicyKinds extends StaticParts {
  /** The kinds' static parts, in the order of their keys. */
  readonly policies: readonly KindPolicy[];
  /** The kinds' keys of the branch tuning. */
  readonly tunings: readonly KindTuning[];
  /** The strict schema of the static part (built on its first call). */
  schema(): ReturnType<typeof policySchemaOf>;
  /** Each policy these kinds validated (the frozen snapshot) with its parsed form, so a later stage does not validate it again. */
  readonly validated: WeakMap<object, ParsedPolicy>;
}

/**
 * The policy stages of `kinds` (each kind's `policy` and `tuning`, both optional).
 *
 * @throws Error when the kinds' static parts disagree (see `staticPartsOf`).
 */
export function policyKindsOf(kinds: readonly { readonly policy?: KindPolicy | undefined; readonly tuning?: KindTuning | undefined }[]): PolicyKinds {
  const policies = kinds.flatMap((kind) => (kind.policy === undefined ? [] : [kind.policy])).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const parts = staticPartsOf(policies);
  let schema: ReturnType<typeof policySchemaOf> | undefined;
  return {
    ...parts,
    policies,
    tunings: kinds.flatMap((kind) => (kind.tuning === undefined ? [] : [kind.tuning])),
    schema: () => {
      schema ??= policySchemaOf(parts);
      return schema;
    },
    validated: new WeakMap(),
  };
}
