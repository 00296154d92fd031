/** The order of a policy's top-level keys in what a pull writes: the order the policy's schema declares them. */
import { policySchema } from "../config/schemas/policy.js";

/** The position of each top-level key in the policy's schema. */
function rankOfKey(key: string): number {
  const index = Object.keys(policySchema.shape).indexOf(key);
  return index < 0 ? Number.MAX_SAFE_INTEGER : index;
}

/** `policy`'s own entries (undefined values left out) in the schema's order; keys the schema lacks come last, as given. */
export function policyEntries(policy: object): [string, unknown][] {
  return Object.entries(policy)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => rankOfKey(a) - rankOfKey(b));
}

/** A copy of `policy` with its keys in the schema's order. */
export function inPolicyOrder<T extends object>(policy: T): T {
  return Object.fromEntries(policyEntries(policy)) as T;
}
