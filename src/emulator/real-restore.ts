/**
 * The data side of snapshots and branch restore with `realDatabases`: once the record-level
 * request succeeded, the physical databases follow. A snapshot is a set of physical copies named
 * after the snapshot id; restoring copies the source's (or the snapshot's) databases over the
 * branch's; a preserved branch gets the branch's databases as they were.
 */
import type { BranchDatabases, BranchFacts } from "./postgres/branch-databases.js";
import type { BranchRec, ProjectRec, SnapshotRec } from "./store/records.js";

type Json = Record<string, unknown>;

const SNAPSHOT_CREATE = /^\/api\/v2\/projects\/([^/]+)\/branches\/([^/]+)\/snapshot$/;
const SNAPSHOT = /^\/api\/v2\/projects\/([^/]+)\/snapshots\/([^/]+)$/;
const SNAPSHOT_RESTORE = /^\/api\/v2\/projects\/([^/]+)\/snapshots\/([^/]+)\/restore$/;
const BRANCH_RESTORE = /^\/api\/v2\/projects\/([^/]+)\/branches\/([^/]+)\/restore$/;

/** The facts of records with roles and databases under an id (a branch's, or a snapshot's). */
export function databaseFacts(id: string, records: Pick<BranchRec, "roles" | "databases">): BranchFacts {
  return {
    id,
    roles: new Map([...records.roles].map(([name, role]) => [name, { password: role.password }])),
    databases: new Map([...records.databases].map(([name, db]) => [name, { ownerName: db.ownerName }])),
  };
}

function snapshotFacts(snapshot: SnapshotRec): BranchFacts {
  return databaseFacts(snapshot.id, snapshot.content);
}

const idOf = (value: unknown): string => String(((value ?? {}) as Json)["id"] ?? "");

/** Whether the request is one this module follows up on. */
export function isRestoreRequest(method: string, path: string): boolean {
  if (method === "DELETE") return SNAPSHOT.test(path);
  return method === "POST" && (SNAPSHOT_CREATE.test(path) || SNAPSHOT_RESTORE.test(path) || BRANCH_RESTORE.test(path));
}

/**
 * Runs `inner` (the record-level request) and then copies or drops physical databases to match.
 * `project` looks up a project with real databases by its (encoded) path id.
 */
export async function followRestore(real: BranchDatabases, project: (id: string | undefined) => ProjectRec | undefined, request: Request, inner: () => Promise<Response>): Promise<Response> {
  const method = request.method;
  const path = new URL(request.url).pathname;
  if (method === "DELETE") {
    const [, projectId, snapshotId] = SNAPSHOT.exec(path) ?? [];
    const doomed = project(projectId)?.snapshots.get(decodeURIComponent(snapshotId ?? ""));
    const response = await inner();
    if (doomed !== undefined && response.ok) await real.dropBranch(snapshotFacts(doomed));
    return response;
  }
  const restore = BRANCH_RESTORE.exec(path);
  if (restore !== null) {
    const target = project(restore[1])?.branches.get(decodeURIComponent(restore[2] ?? ""));
    const before = target === undefined ? undefined : databaseFacts(target.id, target);
    const requested = (await request.clone().json().catch(() => ({}))) as Json;
    const response = await inner();
    const p = project(restore[1]);
    if (!response.ok || before === undefined || target === undefined || p === undefined) return response;
    const body = (await response.clone().json()) as Json;
    const preserved = p.branches.get(idOf(body["preserved_branch"]));
    if (preserved !== undefined) await real.copyBranch(before, databaseFacts(preserved.id, preserved));
    const source = p.branches.get(String(requested["source_branch_id"] ?? ""));
    if (source !== undefined && source.id !== target.id) {
      await real.dropBranch(before);
      await real.copyBranch(databaseFacts(source.id, source), databaseFacts(target.id, target));
    }
    return response;
  }
  const response = await inner();
  if (!response.ok) return response;
  const body = (await response.clone().json()) as Json;
  const created = SNAPSHOT_CREATE.exec(path);
  if (created !== null) {
    const p = project(created[1]);
    const branch = p?.branches.get(decodeURIComponent(created[2] ?? ""));
    const snapshot = p?.snapshots.get(idOf(body["snapshot"]));
    if (branch !== undefined && snapshot !== undefined) await real.copyBranch(databaseFacts(branch.id, branch), snapshotFacts(snapshot));
    return response;
  }
  const restored = SNAPSHOT_RESTORE.exec(path);
  const p = project(restored?.[1]);
  const snapshot = p?.snapshots.get(decodeURIComponent(restored?.[2] ?? ""));
  const branch = p?.branches.get(idOf(body["branch"]));
  if (snapshot !== undefined && branch !== undefined) await real.copyBranch(snapshotFacts(snapshot), databaseFacts(branch.id, branch));
  return response;
}
