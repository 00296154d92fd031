/**
 * Role and database names: PostgreSQL identifiers of 1–63 bytes that also travel as
 * one URL path segment (`…/roles/{role}`, `…/databases/{db}`). Leaf module: imports only its
 * sibling rules.
 */
import { URL_SEGMENT_ISSUE_MESSAGES, urlSegmentIssue } from "./url-segment.js";
import { unsafeCharacterIssue } from "./visible-text.js";

/** PostgreSQL's identifier limit in bytes (NAMEDATALEN − 1). */
export const MAX_PG_NAME_BYTES = 63;

/** Role names PostgreSQL refuses or gives another meaning (`GRANT … TO public`, `SET ROLE none`). */
const RESERVED_ROLES: readonly string[] = Object.freeze(["public", "none", "current_user", "session_user", "current_role"]);

/** Databases every PostgreSQL cluster keeps for itself. */
const RESERVED_DATABASES: readonly string[] = Object.freeze(["postgres", "template0", "template1"]);

function pgNameIssue(name: string): string | null {
  const bytes = new TextEncoder().encode(name).length;
  if (bytes < 1 || bytes > MAX_PG_NAME_BYTES) return `must be 1 to ${MAX_PG_NAME_BYTES} bytes long (PostgreSQL's identifier limit; got ${bytes})`;
  const unsafe = unsafeCharacterIssue(name);
  if (unsafe !== null) return unsafe;
  if (name.trim() !== name) return "begins or ends with whitespace, which makes two names that print the same";
  const segment = urlSegmentIssue(name);
  return segment === null ? null : URL_SEGMENT_ISSUE_MESSAGES[segment];
}

/**
 * The role-name rule: a PostgreSQL name not starting with `pg_` and none of the names PostgreSQL
 * reserves (`public`, `none`, `current_user`, `session_user`, `current_role`, in any case).
 * `null` when fine.
 */
export function roleNameIssue(name: string): string | null {
  const basic = pgNameIssue(name);
  if (basic !== null) return basic;
  if (RESERVED_ROLES.includes(name.toLowerCase())) return `is reserved by PostgreSQL (${RESERVED_ROLES.join(", ")} cannot name a role)`;
  return /^pg_/i.test(name) ? 'starts with "pg_", which PostgreSQL reserves for its own roles' : null;
}

/** The database-name rule: a PostgreSQL name other than `postgres`, `template0` and `template1`. `null` when fine. */
export function databaseNameIssue(name: string): string | null {
  const basic = pgNameIssue(name);
  if (basic !== null) return basic;
  return RESERVED_DATABASES.includes(name) ? `is one of the databases PostgreSQL keeps for itself (${RESERVED_DATABASES.join(", ")})` : null;
}
