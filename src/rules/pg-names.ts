/**
 * Role and database names (api.md §7): PostgreSQL identifiers of 1–63 bytes that also travel as
 * one URL path segment (`…/roles/{role}`, `…/databases/{db}`). Leaf module: imports only its
 * sibling rules.
 */
import { URL_SEGMENT_ISSUE_MESSAGES, urlSegmentIssue } from "./url-segment.js";
import { unsafeCharacterIssue } from "./visible-text.js";

/** PostgreSQL's identifier limit in bytes (NAMEDATALEN − 1). */
export const MAX_PG_NAME_BYTES = 63;

/** Databases every PostgreSQL cluster keeps for itself. */
const RESERVED_DATABASES: readonly string[] = Object.freeze(["postgres", "template0", "template1"]);

function pgNameIssue(name: string): string | null {
  const bytes = new TextEncoder().encode(name).length;
  if (bytes < 1 || bytes > MAX_PG_NAME_BYTES) return `must be 1 to ${MAX_PG_NAME_BYTES} bytes long (PostgreSQL's identifier limit; got ${bytes})`;
  const unsafe = unsafeCharacterIssue(name);
  if (unsafe !== null) return unsafe;
  const segment = urlSegmentIssue(name);
  return segment === null ? null : URL_SEGMENT_ISSUE_MESSAGES[segment];
}

/** The role-name rule: a PostgreSQL name not starting with `pg_`, which PostgreSQL reserves. `null` when fine. */
export function roleNameIssue(name: string): string | null {
  const basic = pgNameIssue(name);
  if (basic !== null) return basic;
  return /^pg_/i.test(name) ? 'starts with "pg_", which PostgreSQL reserves for its own roles' : null;
}

/** The database-name rule: a PostgreSQL name other than `postgres`, `template0` and `template1`. `null` when fine. */
export function databaseNameIssue(name: string): string | null {
  const basic = pgNameIssue(name);
  if (basic !== null) return basic;
  return RESERVED_DATABASES.includes(name) ? `is one of the databases PostgreSQL keeps for itself (${RESERVED_DATABASES.join(", ")})` : null;
}
