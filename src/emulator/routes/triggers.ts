/**
 * Triggers: parse the wire body, call the domain functions of `engine/triggers.ts`
 * (inheritance and copy on write live there), render the view.
 */
import { Hono, type Context } from "hono";
import { TriggerCreateRequestSchema, TriggerUpdateRequestSchema, type TriggerUpdateRequest } from "../../api/wire/index.js";
import { createTrigger, deleteTrigger, findTrigger, updateTrigger, type TriggerInput } from "../engine/triggers.js";
import type { EmulatorEnv } from "../http/env.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import { triggerView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";

/** Wire body (create or update) -> the domain's input. */
function triggerInput(body: TriggerUpdateRequest): TriggerInput {
  const storage = body.storage_object_created;
  return {
    type: body.type,
    ...(body.function_slug !== undefined ? { functionSlug: body.function_slug } : {}),
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.function_path !== undefined ? { functionPath: body.function_path } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(body.schedule !== undefined ? { cron: body.schedule.cron } : {}),
    ...(storage !== undefined ? { storage: { bucketName: storage.bucket_name, ...(storage.prefix !== undefined ? { prefix: storage.prefix } : {}) } } : {}),
  };
}

/** Routes of the trigger group. */
export function triggerRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/triggers";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c, "triggers");

  r.get(base, (c) => {
    const { branch } = scope(c);
    const now = rt.world.clock.now();
    const list = [...branch.triggers.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return c.json({ triggers: list.map((t) => triggerView(t, now)) });
  });

  r.post(base, async (c) => {
    const { project, branch } = scope(c);
    const body = await readJson(c, TriggerCreateRequestSchema);
    const t = createTrigger(rt.world, project, branch, { ...triggerInput(body), functionSlug: body.function_slug, name: body.name });
    return c.json({ trigger: triggerView(t, rt.world.clock.now()) }, 201);
  });

  r.get(`${base}/:trigger_id`, (c) => {
    const { branch } = scope(c);
    return c.json({ trigger: triggerView(findTrigger(branch, c.req.param("trigger_id")), rt.world.clock.now()) });
  });

  r.patch(`${base}/:trigger_id`, async (c) => {
    const { branch } = scope(c);
    const id = findTrigger(branch, c.req.param("trigger_id")).id;
    const body = await readJson(c, TriggerUpdateRequestSchema);
    return c.json({ trigger: triggerView(updateTrigger(branch, id, triggerInput(body)), rt.world.clock.now()) });
  });

  r.delete(`${base}/:trigger_id`, (c) => {
    const { branch } = scope(c);
    deleteTrigger(branch, c.req.param("trigger_id"));
    return c.body(null, 204);
  });

  return r;
}
