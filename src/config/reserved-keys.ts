/**
 * Reserved keys anywhere in a policy or a branch tuning (policy.md §13): a collection key such
 * as `__proto__` (easily produced by `JSON.parse`) cannot be held as plain data, so it is an
 * error naming its path instead of an entry that silently vanishes.
 */
import type { ConfigIssue } from "../errors/index.js";
import { isReservedKey, reservedKeyIssue } from "../rules/names.js";
import { formatPath } from "./issues.js";

/**
 * Every own key of `value`'s plain objects and arrays (recursively; functions and class
 * instances are not entered) that is reserved, as one issue per key on its path under `prefix`.
 */
export function reservedKeyIssues(value: unknown, prefix: readonly PropertyKey[] = []): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, path: readonly PropertyKey[]): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    const proto: unknown = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== null) return;
    for (const key of Object.keys(node)) {
      if (isReservedKey(key)) issues.push({ path: formatPath([...path, key]), message: reservedKeyIssue(key) });
      else walk((node as Record<string, unknown>)[key], [...path, key]);
    }
  };
  walk(value, prefix);
  return issues;
}
