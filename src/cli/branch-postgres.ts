/**
 * The PostgreSQL side of a branch as `svc config status` shows it: its computes (type, state,
 * autoscaling bounds, suspend timeout), roles and databases. Read in one parallel wave; never a
 * password (role records carry none here).
 */
import type { PlatformApi } from "../api/platform-api.js";

/** One compute endpoint of the branch. */
export interface ComputeStatus {
  id: string;
  type: string;
  state: string | null;
  minCu: number;
  maxCu: number;
  /** `-1` never suspends, `0` the platform's default. */
  suspendTimeoutSeconds: number;
}

/** One role: whether it can log in, and whether the platform protects it. */
export interface RoleStatus {
  name: string;
  login: boolean;
  protected: boolean;
}

/** One database and its owner. */
export interface DatabaseStatus {
  name: string;
  owner: string;
}

/** What a branch holds in PostgreSQL. */
export interface BranchPostgres {
  computes: ComputeStatus[];
  roles: RoleStatus[];
  databases: DatabaseStatus[];
}

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Reads the branch's computes, roles and databases. */
export async function readBranchPostgres(api: PlatformApi, ids: { projectId: string; branchId: string }): Promise<BranchPostgres> {
  const [endpoints, roles, databases] = await Promise.all([api.listEndpoints(ids), api.listRoles(ids), api.listDatabases(ids)]);
  return {
    computes: endpoints
      .map((e) => ({ id: e.id, type: e.type, state: e.current_state ?? null, minCu: e.autoscaling_limit_min_cu, maxCu: e.autoscaling_limit_max_cu, suspendTimeoutSeconds: e.suspend_timeout_seconds }))
      .sort((a, b) => (a.type === b.type ? (a.id < b.id ? -1 : 1) : a.type === "read_write" ? -1 : 1)),
    roles: roles.map((r) => ({ name: r.name, login: r.authentication_method !== "no_login", protected: r.protected === true })).sort(byName),
    databases: databases.map((d) => ({ name: d.name, owner: d.owner_name })).sort(byName),
  };
}

function suspendText(seconds: number): string {
  if (seconds === -1) return "never suspends";
  if (seconds === 0) return "suspends after the platform's default";
  return `suspends after ${seconds} s idle`;
}

/** The status lines of a branch's computes, roles and databases. */
export function renderBranchPostgresText(postgres: BranchPostgres): string[] {
  return [
    `Computes (${postgres.computes.length})`,
    ...postgres.computes.map((c) => `  ${c.id} (${c.type}${c.state === null ? "" : `, ${c.state}`}): ${c.minCu === c.maxCu ? `${c.minCu} CU` : `${c.minCu}-${c.maxCu} CU`}, ${suspendText(c.suspendTimeoutSeconds)}`),
    `Roles (${postgres.roles.length})`,
    ...postgres.roles.map((r) => `  ${r.name}${r.login ? "" : " (no login)"}${r.protected ? " (protected)" : ""}`),
    `Databases (${postgres.databases.length})`,
    ...postgres.databases.map((d) => `  ${d.name} (owner ${d.owner})`),
  ];
}
