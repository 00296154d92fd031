/**
 * Snapshots, backup schedules and branch restore, at record level: parse →
 * call the domain function in `engine/restore.ts` → render the view.
 */
import { Hono, type Context } from "hono";
import {
  BackupScheduleSchema,
  BranchRestoreRequestSchema,
  FinalizeRestoreRequestSchema,
  SnapshotCreateRequestSchema,
  SnapshotRestoreRequestSchema,
  SnapshotUpdateRequestSchema,
} from "../../api/wire/index.js";
import { createSnapshot, deleteSnapshot, findSnapshot, finalizeRestore, listSnapshots, restoreBranch, restoreSnapshot, setBackupSchedule, updateSnapshot } from "../engine/restore.js";
import { RuleError } from "../engine/rule-error.js";
import type { EmulatorEnv } from "../http/env.js";
import { visibleBranch, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { branchView, operationView, snapshotView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";

/** A timestamp field as milliseconds; one that is not a time is refused naming the field. */
function parseTime(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new RuleError("invalid", `${field} ${JSON.stringify(value)} is not a timestamp; give an RFC 3339 time such as 2026-01-01T00:00:00Z`, { field });
  return time;
}

/** Routes of snapshots, backup schedules, restore and finalize_restore. */
export function snapshotRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const branchOf = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => visibleBranch(rt.world, c, c.req.param("project_id") ?? "", c.req.param("branch_id") ?? "");
  const projectOf = (c: Context<EmulatorEnv>): ProjectRec => visibleProject(rt.world, c, c.req.param("project_id") ?? "");

  r.post("/projects/:project_id/branches/:branch_id/snapshot", async (c) => {
    const world = rt.world;
    world.now();
    const { project, branch } = branchOf(c);
    // The platform takes these as query parameters; a JSON body is accepted too.
    const query = readQuery(c, SnapshotCreateRequestSchema);
    const body = await readJson(c, SnapshotCreateRequestSchema, { optional: true });
    const input = { ...query, ...body };
    const expiresAt = parseTime(input.expires_at, "expires_at");
    const timestamp = parseTime(input.timestamp, "timestamp");
    const snapshot = createSnapshot(world, project, branch, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.lsn !== undefined ? { lsn: input.lsn } : {}),
      ...(timestamp !== undefined ? { timestamp } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    return c.json({ snapshot: snapshotView(snapshot), operations: [] }, 201);
  });

  r.get("/projects/:project_id/snapshots", (c) => {
    const now = rt.world.now();
    return c.json({ snapshots: listSnapshots(projectOf(c), now).map(snapshotView) });
  });

  r.patch("/projects/:project_id/snapshots/:snapshot_id", async (c) => {
    const now = rt.world.now();
    const project = projectOf(c);
    const snapshot = findSnapshot(project, c.req.param("snapshot_id"), now);
    const { snapshot: input } = await readJson(c, SnapshotUpdateRequestSchema);
    const expiresAt = input.expires_at === null ? null : parseTime(input.expires_at, "expires_at");
    updateSnapshot(rt.world, snapshot, { ...(input.name !== undefined ? { name: input.name } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) });
    return c.json({ snapshot: snapshotView(snapshot) });
  });

  r.delete("/projects/:project_id/snapshots/:snapshot_id", (c) => {
    const now = rt.world.now();
    const snapshot = deleteSnapshot(projectOf(c), c.req.param("snapshot_id"), now);
    return c.json({ snapshot: snapshotView(snapshot), operations: [] });
  });

  r.post("/projects/:project_id/snapshots/:snapshot_id/restore", async (c) => {
    const world = rt.world;
    const now = world.now();
    const project = projectOf(c);
    const snapshot = findSnapshot(project, c.req.param("snapshot_id"), now);
    const body = await readJson(c, SnapshotRestoreRequestSchema, { optional: true });
    const { branch, replaced, operations } = restoreSnapshot(
      world,
      project,
      snapshot,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.target_branch_id !== undefined ? { targetBranchId: body.target_branch_id } : {}),
        ...(body.finalize_restore !== undefined ? { finalize: body.finalize_restore } : {}),
      },
      rt.shouldFailOperation,
    );
    return c.json({ branch: branchView(branch), ...(replaced !== undefined ? { replaced_branch: branchView(replaced) } : {}), operations: operations.map(operationView) }, 201);
  });

  r.get("/projects/:project_id/branches/:branch_id/backup_schedule", (c) => {
    rt.world.now();
    const { branch } = branchOf(c);
    return c.json({ schedule: structuredClone(branch.backupSchedule ?? []) });
  });

  r.put("/projects/:project_id/branches/:branch_id/backup_schedule", async (c) => {
    rt.world.now();
    const { branch } = branchOf(c);
    const body = await readJson(c, BackupScheduleSchema);
    return c.json({ schedule: setBackupSchedule(rt.world, branch, body.schedule) });
  });

  r.post("/projects/:project_id/branches/:branch_id/restore", async (c) => {
    const world = rt.world;
    world.now();
    const { project, branch } = branchOf(c);
    const body = await readJson(c, BranchRestoreRequestSchema);
    const timestamp = parseTime(body.source_timestamp, "source_timestamp");
    const { preserved, operations } = restoreBranch(
      world,
      project,
      branch,
      {
        sourceBranchId: body.source_branch_id,
        ...(timestamp !== undefined ? { timestamp } : {}),
        ...(body.source_lsn !== undefined ? { lsn: body.source_lsn } : {}),
        ...(body.preserve_under_name !== undefined ? { preserveUnderName: body.preserve_under_name } : {}),
      },
      rt.shouldFailOperation,
    );
    return c.json({ branch: branchView(branch), ...(preserved !== undefined ? { preserved_branch: branchView(preserved) } : {}), operations: operations.map(operationView) });
  });

  r.post("/projects/:project_id/branches/:branch_id/finalize_restore", async (c) => {
    const world = rt.world;
    world.now();
    const { project, branch } = branchOf(c);
    const body = await readJson(c, FinalizeRestoreRequestSchema, { optional: true });
    const { replaced, operations } = finalizeRestore(world, project, branch, body.name !== undefined ? { name: body.name } : {}, rt.shouldFailOperation);
    return c.json({ branch: branchView(branch), replaced_branch: branchView(replaced), operations: operations.map(operationView) });
  });

  return r;
}
