/**
 * Following the two pagination flavours until the last page: `cursor` lists stop at an
 * empty page or one without `pagination`; `next` lists follow `next`, else `cursor`, until absent.
 */

/** Hard stop against a server that repeats a cursor forever. */
const MAX_PAGES = 10_000;

/** One page: its items and the cursor to continue with (absent or `""` = last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
}

/** Fetches pages until one has no continuation cursor or is empty. */
export async function collectPages<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await fetchPage(cursor);
    all.push(...result.items);
    const next = result.nextCursor;
    if (result.items.length === 0 || next === undefined || next === "" || seen.has(next)) break;
    seen.add(next);
    cursor = next;
  }
  return all;
}

/** Next flavour (branches, functions, custom domains): continue with `next`, else `cursor`. */
export function nextFlavourCursor(pagination: { next?: string | null; cursor?: string | null } | null | undefined): string | undefined {
  const next = pagination?.next;
  if (typeof next === "string" && next !== "") return next;
  const cursor = pagination?.cursor;
  return typeof cursor === "string" && cursor !== "" ? cursor : undefined;
}

/** Cursor flavour (projects, operations): continue with `cursor`. */
export function cursorFlavourCursor(pagination: { cursor?: string | null } | null | undefined): string | undefined {
  const cursor = pagination?.cursor;
  return typeof cursor === "string" && cursor !== "" ? cursor : undefined;
}
