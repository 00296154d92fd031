/**
 * Remembers which file a policy object was loaded from, so `resolvePolicy` can resolve relative
 * function sources against that file's directory. Weak: forgets with the object.
 */
const originByPolicy = new WeakMap<object, string>();

/** Records that `policy` was loaded from the absolute path `file`. */
export function rememberPolicyFile(policy: object, file: string): void {
  originByPolicy.set(policy, file);
}

/** The absolute file `policy` was loaded from, if `loadConfigFromFile` produced it. */
export function policyFileOf(policy: object): string | undefined {
  return originByPolicy.get(policy);
}
