/**
 * With `realDatabases`, the role and database routes of the management API change
 * the real PostgreSQL too: a created role or database exists there, a new password or owner
 * applies, a deleted one is dropped. This module maps a request that succeeded to the
 * {@link BranchDatabases} call that mirrors it.
 */
import type { BranchDatabases, BranchFacts } from "./branch-databases.js";

const BRANCH = String.raw`^/api/v2/projects/([^/]+)/branches/([^/]+)`;
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
  const path = (match: RegExpExecArray): string => decodeURIComponent(match[3] ?? "");
  let match: RegExpExecArray | null;
  if (method === "POST" && (match = ROLES.exec(pathname)) !== null) return at(match, (real, branch, body) => real.createRole(branch, nameIn(body, "role")));
  if (method === "POST" && (match = RESET_PASSWORD.exec(pathname)) !== null) {
    const role = path(match);
    return at(match, (real, branch) => real.updatePassword(branch, role));
  }
  if (method === "DELETE" && (match = ROLE.exec(pathname)) !== null) {
    const role = path(match);
    return at(match, (real, branch) => real.dropRole(branch, role));
  }
  if (method === "POST" && (match = DATABASES.exec(pathname)) !== null) return at(match, (real, branch, body) => real.createDatabase(branch, nameIn(body, "database")));
  if (method === "PATCH" && (match = DATABASE.exec(pathname)) !== null) {
    const previous = path(match);
    return at(match, (real, branch, body) => real.updateDatabase(branch, previous, nameIn(body, "database")));
  }
  if (method === "DELETE" && (match = DATABASE.exec(pathname)) !== null) {
    const database = path(match);
    return at(match, (real, branch) => real.dropDatabase(branch, database));
  }
  return undefined;
}
