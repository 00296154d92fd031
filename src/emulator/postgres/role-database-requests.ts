/**
 * With `realDatabases`, the role and database routes of the management API change
 * the real PostgreSQL too: a created role or database exists there, a new password or owner
 * applies, a deleted one is dropped. This module maps a request that succeeded to the
 * {@link BranchDatabases} call that mirrors it.
 */
import type { BranchDatabases, BranchFacts } from "./branch-databases.js";

const BRANCH = "^/api/v2/projects/([^/]+)/branches/([^/]+)";
const ROLES = new RegExp(`${BRANCH}/roles$`);
const ROLE = new RegExp(`${BRANCH}/roles/([^/]+)$`);
const RESET_PASSWORD = new RegExp(`${BRANCH}/roles/([^/]+)/reset_password$`);
const DATABASES = new RegExp(`${BRANCH}/databases$`);
const DATABASE = new RegExp(`${BRANCH}/databases/([^/]+)$`);

type Json = Record<string, unknown>;

/** A role or database request, before it runs: whose branch, and how to mirror its success. */
export interface RoleDatabaseRequest {
  readonly projectId: string;
  readonly branchId: string;
  /** Mirrors the change; `branch` is the branch after the request, `body` the response body. */
  mirror(real: BranchDatabases, branch: BranchFacts, body: Json): Promise<void>;
}

function nameIn(body: Json, key: "role" | "database"): string {
  const record = body[key];
  const name = typeof record === "object" && record !== null ? (record as Json)["name"] : undefined;
  return typeof name === "string" ? name : "";
}

/** The request's role or database change, or undefined when it is not one. */
export function roleDatabaseRequestOf(method: string, pathname: string): RoleDatabaseRequest | undefined {
  const at = (match: RegExpExecArray, mirror: RoleDatabaseRequest["mirror"]): RoleDatabaseRequest => ({
    projectId: decodeURIComponent(match[1] ?? ""),
    branchId: decodeURIComponent(match[2] ?? ""),
    mirror,
  });
  const matching = (want: string, route: RegExp): RegExpExecArray | null => (method === want ? route.exec(pathname) : null);
  const path = (match: RegExpExecArray): string => decodeURIComponent(match[3] ?? "");
  const roles = matching("POST", ROLES);
  if (roles !== null) return at(roles, (real, branch, body) => real.createRole(branch, nameIn(body, "role")));
  const reset = matching("POST", RESET_PASSWORD);
  if (reset !== null) {
    const role = path(reset);
    return at(reset, (real, branch) => real.updatePassword(branch, role));
  }
  const dropRole = matching("DELETE", ROLE);
  if (dropRole !== null) {
    const role = path(dropRole);
    return at(dropRole, (real, branch) => real.dropRole(branch, role));
  }
  const databases = matching("POST", DATABASES);
  if (databases !== null) return at(databases, (real, branch, body) => real.createDatabase(branch, nameIn(body, "database")));
  const rename = matching("PATCH", DATABASE);
  if (rename !== null) {
    const previous = path(rename);
    return at(rename, (real, branch, body) => real.updateDatabase(branch, previous, nameIn(body, "database")));
  }
  const dropDatabase = matching("DELETE", DATABASE);
  if (dropDatabase !== null) {
    const database = path(dropDatabase);
    return at(dropDatabase, (real, branch) => real.dropDatabase(branch, database));
  }
  return undefined;
}
