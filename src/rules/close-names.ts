/**
 * The "did you mean" of a name that is not known: the policy's unknown keys and the roles a
 * policy names but neither declares nor finds on the branch. Pure; imports nothing.
 */

/** Equal but for case, or one insertion, deletion, substitution or swap apart. */
function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.toLowerCase() === b.toLowerCase()) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * ` (did you mean "known"?)` for the first of `known` that is one edit from `name` (or differs
 * only in case), else `""`: appended to a message saying `name` is unknown.
 */
export function didYouMean(name: string, known: Iterable<string>): string {
  for (const candidate of known) if (editDistanceAtMostOne(name, candidate)) return ` (did you mean "${candidate}"?)`;
  return "";
}
