/** The order of a policy's top-level keys in what a pull writes: the order the policy's schema declares them. */

/** `policy`'s own entries (undefined values left out) in the order of `keys`; keys it lacks come last, as given. */
export function policyEntries(policy: object, keys: readonly string[]): [string, unknown][] {
  const rankOfKey = (key: string): number => {
    const index = keys.indexOf(key);
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  return Object.entries(policy)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => rankOfKey(a) - rankOfKey(b));
}

/** A copy of `policy` with its keys in the order of `keys`. */
export function inPolicyOrder<T extends object>(policy: T, keys: readonly string[]): T {
  return Object.fromEntries(policyEntries(policy, keys)) as T;
}
