/**
 * Triggers (api.md §14). A child branch sees its parent's triggers under the same ids, disabled;
 * PATCHing one makes a branch-local copy; DELETE removes it from this branch only.
 */
import { Hono, type Context } from "hono";
import { TriggerCreateRequestSchema, TriggerUpdateRequestSchema } from "../../api/wire/index.js";
import { checkCron } from "../../rules/cron.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, conflict, notFound, unprocessable } from "../http/errors.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import { triggerView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec, TriggerRec } from "../store/records.js";

function normalizedCron(cron: string): string {
  const check = checkCron(cron);
  if (!check.valid) throw badRequest(`schedule.cron "${cron}" ${check.message}`, [{ path: "schedule.cron", message: check.message }]);
  return check.normalized;
}

function requireFunction(branch: BranchRec, slug: string): void {
  if (!branch.functions.has(slug)) throw notFound(`function_slug: function "${slug}" not found on branch ${branch.id}; deploy it first`);
}

function requireBucket(branch: BranchRec, name: string): void {
  if (!branch.buckets.has(name)) throw notFound(`storage_object_created.bucket_name: bucket "${name}" not found on branch ${branch.id}`);
}

function requireUniqueName(branch: BranchRec, name: string, except?: string): void {
  for (const t of branch.triggers.values()) {
    if (t.name === name && t.id !== except) throw conflict(`a trigger named "${name}" already exists on branch ${branch.id}; choose another name`, "already_exists");
  }
}

/** Routes of the trigger group. */
export function triggerRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/triggers";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c, "triggers");
  const triggerOf = (c: Context<EmulatorEnv>, branch: BranchRec): TriggerRec => {
    const id = c.req.param("trigger_id") ?? "";
    const t = branch.triggers.get(id);
    if (t === undefined) throw notFound(`trigger ${id} not found on branch ${branch.id}`);
    return t;
  };
  const newTriggerId = (project: ProjectRec): string => {
    for (;;) {
      const id = `trg_${rt.world.ids.hex(16)}`;
      if (![...project.branches.values()].some((b) => b.triggers.has(id))) return id;
    }
  };

  r.get(base, (c) => {
    const { branch } = scope(c);
    const now = rt.world.clock.now();
    const list = [...branch.triggers.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return c.json({ triggers: list.map((t) => triggerView(t, now)) });
  });

  r.post(base, async (c) => {
    const { project, branch } = scope(c);
    const body = await readJson(c, TriggerCreateRequestSchema);
    const cron = body.type === "schedule" ? normalizedCron(body.schedule.cron) : undefined;
    requireFunction(branch, body.function_slug);
    if (body.type === "storage_object_created") requireBucket(branch, body.storage_object_created.bucket_name);
    requireUniqueName(branch, body.name);
    const t: TriggerRec = {
      id: newTriggerId(project),
      type: body.type,
      functionSlug: body.function_slug,
      name: body.name,
      functionPath: body.function_path ?? "/",
      enabled: body.enabled ?? true,
      version: 1,
      inherited: false,
      ...(cron !== undefined ? { cron } : {}),
      ...(body.type === "storage_object_created"
        ? { bucketName: body.storage_object_created.bucket_name, ...(body.storage_object_created.prefix ? { prefix: body.storage_object_created.prefix } : {}) }
        : {}),
    };
    branch.triggers.set(t.id, t);
    return c.json({ trigger: triggerView(t, rt.world.clock.now()) }, 201);
  });

  r.get(`${base}/:trigger_id`, (c) => {
    const { branch } = scope(c);
    return c.json({ trigger: triggerView(triggerOf(c, branch), rt.world.clock.now()) });
  });

  r.patch(`${base}/:trigger_id`, async (c) => {
    const { branch } = scope(c);
    const t = triggerOf(c, branch);
    const body = await readJson(c, TriggerUpdateRequestSchema);
    if (body.type !== t.type) throw unprocessable(`type "${body.type}" does not match trigger ${t.id}'s type "${t.type}"; a trigger's type cannot change`, "type_mismatch");
    const cron = body.schedule !== undefined ? normalizedCron(body.schedule.cron) : undefined;
    if (body.function_slug !== undefined) requireFunction(branch, body.function_slug);
    if (body.storage_object_created !== undefined) requireBucket(branch, body.storage_object_created.bucket_name);
    if (body.name !== undefined) requireUniqueName(branch, body.name, t.id);
    const wasInherited = t.inherited;
    if (body.function_slug !== undefined) t.functionSlug = body.function_slug;
    if (body.name !== undefined) t.name = body.name;
    if (body.function_path !== undefined) t.functionPath = body.function_path;
    if (cron !== undefined && t.type === "schedule") t.cron = cron;
    if (body.storage_object_created !== undefined && t.type === "storage_object_created") {
      t.bucketName = body.storage_object_created.bucket_name;
      if (body.storage_object_created.prefix) t.prefix = body.storage_object_created.prefix;
      else delete t.prefix;
    }
    t.enabled = body.enabled ?? (wasInherited ? false : t.enabled);
    t.inherited = false;
    t.version += 1;
    return c.json({ trigger: triggerView(t, rt.world.clock.now()) });
  });

  r.delete(`${base}/:trigger_id`, (c) => {
    const { branch } = scope(c);
    const t = triggerOf(c, branch);
    branch.triggers.delete(t.id);
    return c.body(null, 204);
  });

  return r;
}
