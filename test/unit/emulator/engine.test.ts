/** The emulator's domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { createBranch, deleteBranch, setDefaultBranch, updateBranch } from "../../../src/emulator/engine/branches.js";
import { disableDataApi, effectiveDataApiSettings, enableDataApi, findDataApi, updateDataApiSettings } from "../../../src/emulator/engine/data-api.js";
import { deleteFunction, deployFunction, mergeEnvironment, renameFunction } from "../../../src/emulator/engine/deployments.js";
import { lsnAt, newBranchRecord, newEndpointRecord, timeAtLsn } from "../../../src/emulator/engine/lifecycle.js";
import { createSnapshot, deleteSnapshot, finalizeRestore, listSnapshots, restoreBranch, restoreSnapshot, setBackupSchedule, updateSnapshot, type RestoreBranchInput } from "../../../src/emulator/engine/restore.js";
import { createTrigger, deleteTrigger, updateTrigger } from "../../../src/emulator/engine/triggers.js";
import type { BranchRec } from "../../../src/emulator/store/records.js";
import { ARCHIVE, refusal, unitWorld as world } from "./unit-world.js";

describe("deployments", () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => {
    w = world();
  });

  it.each([
    ["sets listed names and keeps the others", { A: "1" }, { B: "2" }, { A: "1", B: "2" }],
    ["replaces a value", { A: "1" }, { A: "9" }, { A: "9" }],
    ["deletes a name given an empty value", { A: "1", B: "2" }, { A: "" }, { B: "2" }],
    ["keeps everything without changes", { A: "1" }, undefined, { A: "1" }],
  ])("merges the environment per name: %s", (_name, before, changes, after) => {
    expect(Object.fromEntries(mergeEnvironment(new Map(Object.entries(before)), changes))).toEqual(after);
  });

  it("creates the function on its first deployment, which must carry the archive", () => {
    expect(refusal(() => deployFunction(w.world, w.main, "api", { environment: { A: "1" } }))).toEqual(["unprocessable", "zip_required"]);
    const { fn, deployment } = deployFunction(w.world, w.main, "api", { archive: ARCHIVE, environment: { A: "1" } });
    expect([fn.slug, fn.name, deployment.id, deployment.status, deployment.memoryMib, deployment.runtime]).toEqual(["api", "api", 1, "pending", 2048, "nodejs24"]);
  });

  it("lets a later deployment inherit the archive and runtime, and walks the build on the clock", () => {
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE, runtime: "nodejs24", environment: { A: "1" } });
    const { deployment } = deployFunction(w.world, w.main, "api", { environment: { B: "2" } });
    expect([deployment.id, deployment.zipSha256, Object.fromEntries(deployment.environment)]).toEqual([2, ARCHIVE.sha256, { A: "1", B: "2" }]);
    w.world.clock.advance(100);
    w.world.now();
    expect(deployment.status).toBe("building");
    w.world.clock.advance(300);
    w.world.now();
    expect(deployment.status).toBe("completed");
  });

  it("ends a deployment failed with the archive's build error", () => {
    const { deployment } = deployFunction(w.world, w.main, "bad", { archive: { sha256: "b".repeat(64), buildError: "no index.mjs or index.js at the archive root" } });
    w.world.clock.advance(400);
    w.world.now();
    expect([deployment.status, deployment.error]).toEqual(["failed", "no index.mjs or index.js at the archive root"]);
  });

  it("copies an inherited function on write: the child's deployment leaves the parent's function alone", () => {
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE, environment: { A: "1" } });
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    expect(refusal(() => renameFunction(child, "api", "Renamed"))).toEqual(["not_found", "not_found"]);
    const { fn } = deployFunction(w.world, child, "api", { environment: { A: "" } });
    expect(fn.inherited).toBe(false);
    expect(renameFunction(child, "api", "Renamed").name).toBe("Renamed");
    const parent = w.main.functions.get("api");
    expect([parent?.name, parent?.deployments.length, Object.fromEntries(parent?.deployments[0]?.environment ?? [])]).toEqual(["api", 1, { A: "1" }]);
    expect(fn.deployments.map((d) => d.id)).toEqual([1, 2]);
  });

  it("deletes a function with its triggers and custom domains", () => {
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE });
    w.main.triggers.set("t1", { id: "t1", type: "schedule", functionSlug: "api", name: "hourly", functionPath: "/", enabled: true, version: 1, inherited: false, cron: "0 * * * *" });
    w.world.domains.set("api.example.com", { domain: "api.example.com", accountId: w.project.ownerId, projectId: w.project.id, branchId: w.main.id, entityType: "function", entityId: "api", cnameTarget: "", activeAt: 0, createdAt: 0 });
    deleteFunction(w.world, w.project, w.main, "api");
    expect([w.main.functions.has("api"), w.main.triggers.size, w.world.domains.size]).toEqual([false, 0, 0]);
  });
});

describe("snapshots and restore", () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => {
    w = world();
    w.world.clock.advance(3600_000);
  });

  it("keeps a snapshot's roles apart from later changes to the branch, and restores them into a new branch", () => {
    const snapshot = createSnapshot(w.world, w.project, w.main, { name: "s1" });
    w.main.roles.delete("neondb_owner");
    const { branch } = restoreSnapshot(w.world, w.project, snapshot, { name: "restored" });
    expect([...branch.roles.keys()]).toEqual(["neondb_owner"]);
    expect(branch.pendingRestore).toEqual({ snapshotId: snapshot.id, targetBranchId: w.main.id });
    expect([branch.parentTimestamp, branch.parentLsn]).toEqual([snapshot.timestamp, snapshot.lsn]);
  });

  it("finalizes a restore by moving the target's computes, name and default flag", () => {
    const snapshot = createSnapshot(w.world, w.project, w.main, {});
    const { branch } = restoreSnapshot(w.world, w.project, snapshot, { name: "restored" });
    const { replaced } = finalizeRestore(w.world, w.project, branch, { name: "old-main" });
    expect([branch.name, branch.isDefault, replaced.name, replaced.isDefault]).toEqual(["main", true, "old-main", false]);
    expect([...w.project.endpoints.values()].every((e) => e.branchId === branch.id)).toBe(true);
    expect(refusal(() => finalizeRestore(w.world, w.project, branch, {}))).toEqual(["unprocessable", "unprocessable"]);
  });

  it("restores a branch from another one, preserving the old state on request", () => {
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    child.roles.set("extra", { ...w.main.roles.get("neondb_owner")!, name: "extra" });
    const { preserved } = restoreBranch(w.world, w.project, child, { sourceBranchId: w.main.id, preserveUnderName: "child-old" });
    expect([...child.roles.keys()]).toEqual(["neondb_owner"]);
    expect([...(preserved?.roles.keys() ?? [])].sort()).toEqual(["extra", "neondb_owner"]);
    expect(child.lastResetAt).toBe(w.world.clock.now());
  });

  it("renames and deletes a snapshot once, and stores a backup schedule apart from the caller's copy", () => {
    const snapshot = createSnapshot(w.world, w.project, w.main, { name: "s1" });
    updateSnapshot(w.world, snapshot, { name: "before-migration" });
    expect(listSnapshots(w.project, w.world.clock.now()).map((s) => s.name)).toEqual(["before-migration"]);
    expect(deleteSnapshot(w.project, snapshot.id, w.world.clock.now())).toBe(snapshot);
    expect(refusal(() => deleteSnapshot(w.project, snapshot.id, w.world.clock.now()))).toEqual(["not_found", "not_found"]);
    const schedule = [{ frequency: "daily" as const, hour: 3, retention_seconds: 86_400 }];
    const stored = setBackupSchedule(w.world, w.main, schedule);
    schedule[0]!.hour = 4;
    expect([stored, w.main.backupSchedule, w.main.updatedAt]).toEqual([[{ frequency: "daily", hour: 3, retention_seconds: 86_400 }], stored, w.world.clock.now()]);
  });

  it("sets and clears a snapshot's expiry without renaming it, and refuses one in the past", () => {
    const snapshot = createSnapshot(w.world, w.project, w.main, { name: "s1" });
    const later = w.world.clock.now() + 86_400_000;
    updateSnapshot(w.world, snapshot, { expiresAt: later });
    expect([snapshot.name, snapshot.expiresAt]).toEqual(["s1", later]);
    updateSnapshot(w.world, snapshot, { expiresAt: null });
    expect("expiresAt" in snapshot).toBe(false);
    expect(refusal(() => updateSnapshot(w.world, snapshot, { expiresAt: w.world.clock.now() - 1 }))).toEqual(["invalid", "invalid_request"]);
  });

  it("records the moment of the LSN a snapshot is taken at, not the current time", () => {
    const oneHourAgo = w.world.clock.now() - 3_600_000 + 1_000;
    const snapshot = createSnapshot(w.world, w.project, w.main, { lsn: lsnAt(oneHourAgo) });
    expect([snapshot.timestamp, snapshot.lsn, timeAtLsn(lsnAt(oneHourAgo))]).toEqual([oneHourAgo, lsnAt(oneHourAgo), oneHourAgo]);
    expect(refusal(() => createSnapshot(w.world, w.project, w.main, { lsn: lsnAt(w.world.clock.now() + 60_000) }))).toEqual(["unprocessable", "unprocessable"]);
    expect(refusal(() => createSnapshot(w.world, w.project, w.main, { lsn: "0/1", timestamp: w.world.clock.now() }))).toEqual(["invalid", "invalid_request"]);
  });

  it("restarts the computes a finalized restore moves onto the restored branch", () => {
    const endpoint = [...w.project.endpoints.values()].find((e) => e.branchId === w.main.id);
    if (endpoint !== undefined) endpoint.currentState = "active";
    const snapshot = createSnapshot(w.world, w.project, w.main, {});
    const { branch } = restoreSnapshot(w.world, w.project, snapshot, { name: "restored" });
    w.world.clock.advance(1);
    w.world.now();
    const { operations } = finalizeRestore(w.world, w.project, branch, {});
    expect(operations.map((o) => [o.action, o.branchId, o.endpointId])).toEqual([
      ["suspend_compute", branch.id, endpoint?.id],
      ["start_compute", branch.id, endpoint?.id],
    ]);
  });

  it("starts the restored branch's create_branch, and restarts the target's active computes after a branch restore", () => {
    const snapshot = createSnapshot(w.world, w.project, w.main, {});
    const restored = restoreSnapshot(w.world, w.project, snapshot, { name: "restored" });
    expect(restored.operations.map((o) => [o.action, o.branchId])).toEqual([["create_branch", restored.branch.id]]);
    w.world.clock.advance(1);
    w.world.now();
    expect(restored.branch.currentState).toBe("ready");
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    const endpoint = newEndpointRecord(w.world, w.project, child.id, { type: "read_write" });
    endpoint.currentState = "active";
    const { preserved, operations } = restoreBranch(w.world, w.project, child, { sourceBranchId: w.main.id, preserveUnderName: "child-old" });
    expect(operations.map((o) => [o.action, o.branchId])).toEqual([
      ["create_branch", preserved?.id],
      ["suspend_compute", child.id],
      ["start_compute", child.id],
    ]);
  });

  it("refuses a restore from an unknown branch, and any restore while the project is locked", () => {
    expect(refusal(() => restoreBranch(w.world, w.project, w.main, { sourceBranchId: "br-nope" }))).toEqual(["not_found", "not_found"]);
    const slow = world({ opRunMs: 1_000 });
    const snapshot = createSnapshot(slow.world, slow.project, slow.main, {});
    const { branch } = restoreSnapshot(slow.world, slow.project, snapshot, { name: "restored" });
    expect([
      refusal(() => restoreSnapshot(slow.world, slow.project, snapshot, { name: "again" })),
      refusal(() => finalizeRestore(slow.world, slow.project, branch, {})),
      refusal(() => restoreBranch(slow.world, slow.project, slow.main, { sourceBranchId: slow.main.id, lsn: "0/1" })),
    ]).toEqual([
      ["locked", "locked"],
      ["locked", "locked"],
      ["locked", "locked"],
    ]);
  });

  it.each<[string, (w: ReturnType<typeof world>, child: BranchRec) => RestoreBranchInput, [string, string]]>([
    ["from itself without a point in time", (_w, child) => ({ sourceBranchId: child.id }), ["invalid", "invalid_request"]],
    ["to a time before the branch existed", (w) => ({ sourceBranchId: w.main.id, timestamp: Date.parse("2020-01-01T00:00:00Z") }), ["unprocessable", "unprocessable"]],
    ["with both an LSN and a time", (w) => ({ sourceBranchId: w.main.id, lsn: "0/1", timestamp: w.world.clock.now() }), ["invalid", "invalid_request"]],
  ])("refuses a restore %s", (_name, input, expected) => {
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    expect(refusal(() => restoreBranch(w.world, w.project, child, input(w, child)))).toEqual(expected);
  });
});

describe("branches", () => {
  let w: ReturnType<typeof world>;
  const never = (): boolean => false;
  beforeEach(() => {
    w = world();
    w.world.clock.advance(3600_000);
  });

  it("creates a branch from the default branch with its endpoints, starting create_branch then start_compute", () => {
    const { branch, endpoints, operations } = createBranch(w.world, w.project, { name: "dev", endpoints: [{ type: "read_write" }] }, never);
    // Zero operation timings: the operations finish at once, so the branch is ready and the compute active.
    expect([branch.parentId, branch.currentState, endpoints[0]?.currentState]).toEqual([w.main.id, "ready", "active"]);
    expect(operations.map((o) => o.action)).toEqual(["create_branch", "start_compute"]);
    expect([...branch.roles.keys()]).toEqual([...w.main.roles.keys()]);
  });

  it.each<[string, (w: ReturnType<typeof world>) => Parameters<typeof createBranch>[2], [string, string]]>([
    ["a taken name", () => ({ name: "main", endpoints: [] }), ["conflict", "already_exists"]],
    ["an unknown parent", () => ({ parentId: "br-missing-000000", endpoints: [] }), ["not_found", "not_found"]],
    ["a parent timestamp in the future", (w) => ({ parentTimestamp: w.world.clock.now() + 1000, endpoints: [] }), ["unprocessable", "unprocessable"]],
  ])("refuses %s", (_name, input, expected) => {
    expect(refusal(() => createBranch(w.world, w.project, input(w), never))).toEqual(expected);
  });

  it("refuses to delete the default branch or a branch with children, and deletes a leaf with its endpoints", () => {
    const { branch } = createBranch(w.world, w.project, { name: "leaf", endpoints: [{ type: "read_write" }] }, never);
    expect(refusal(() => deleteBranch(w.world, w.project, w.main, never))).toEqual(["conflict", "in_use"]);
    const operations = deleteBranch(w.world, w.project, branch, never);
    expect(operations.map((o) => o.action)).toEqual(["suspend_compute", "delete_timeline"]);
    expect([w.project.branches.has(branch.id), [...w.project.endpoints.values()].some((e) => e.branchId === branch.id)]).toEqual([false, false]);
  });

  it("moves the default flag and renames, refusing a taken name", () => {
    const { branch } = createBranch(w.world, w.project, { name: "next", endpoints: [] }, never);
    setDefaultBranch(w.world, w.project, branch);
    expect([branch.isDefault, w.main.isDefault]).toEqual([true, false]);
    expect(refusal(() => updateBranch(w.world, w.project, branch, { name: "main" }))).toEqual(["conflict", "already_exists"]);
    updateBranch(w.world, w.project, branch, { name: "renamed", expiresAt: null });
    expect(branch.name).toBe("renamed");
  });
});

describe("triggers", () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => {
    w = world();
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE });
  });

  it("shows a child its parent's triggers disabled; an update makes the child's own copy, leaving the parent's alone", () => {
    const t = createTrigger(w.world, w.project, w.main, { type: "schedule", functionSlug: "api", name: "hourly", cron: "0 * * * *" });
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    expect([child.triggers.get(t.id)?.enabled, child.triggers.get(t.id)?.inherited]).toEqual([false, true]);
    const copy = updateTrigger(child, t.id, { type: "schedule", cron: "30 * * * *" });
    expect([copy.inherited, copy.enabled, copy.cron, copy.version]).toEqual([false, false, "30 * * * *", 2]);
    expect([w.main.triggers.get(t.id)?.cron, w.main.triggers.get(t.id)?.enabled]).toEqual(["0 * * * *", true]);
    deleteTrigger(child, t.id);
    expect([child.triggers.has(t.id), w.main.triggers.has(t.id)]).toEqual([false, true]);
  });

  it.each<[string, () => unknown, [string, string]]>([
    ["a bad cron", () => createTrigger(w.world, w.project, w.main, { type: "schedule", functionSlug: "api", name: "x", cron: "every hour" }), ["invalid", "invalid_request"]],
    ["an unknown function", () => createTrigger(w.world, w.project, w.main, { type: "schedule", functionSlug: "nope", name: "x", cron: "0 * * * *" }), ["not_found", "not_found"]],
    ["a type change", () => updateTrigger(w.main, createTrigger(w.world, w.project, w.main, { type: "schedule", functionSlug: "api", name: "y", cron: "0 * * * *" }).id, { type: "storage_object_created" }), ["unprocessable", "type_mismatch"]],
  ])("refuses %s", (_name, call, expected) => {
    expect(refusal(call)).toEqual(expected);
  });
});

describe("the Data API", () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => {
    w = world();
  });

  it("reads the defaults overlaid with the settings given at creation and by updates", () => {
    enableDataApi(w.main, "neondb", { settings: { db_anon_role: "web" } }, 0);
    updateDataApiSettings(w.main, "neondb", { db_max_rows: 10 });
    expect(effectiveDataApiSettings(findDataApi(w.main, "neondb"))).toMatchObject({ db_anon_role: "web", db_max_rows: 10, db_schemas: ["public"] });
  });

  it("is enabled once, needs branch auth for neon_auth, and is gone once disabled", () => {
    expect(refusal(() => enableDataApi(w.main, "neondb", { authProvider: "neon_auth" }, 0))).toEqual(["unprocessable", "unprocessable"]);
    enableDataApi(w.main, "neondb", {}, 0);
    expect(refusal(() => enableDataApi(w.main, "neondb", {}, 0))).toEqual(["conflict", "already_enabled"]);
    disableDataApi(w.main, "neondb");
    expect(refusal(() => findDataApi(w.main, "neondb"))).toEqual(["not_found", "not_found"]);
  });
});
