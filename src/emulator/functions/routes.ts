/**
 * The emulator's test routes for functions, under `/__emulator` (admin keys only, like the other
 * test routes): `GET /invocations` lists recent invocations (and the schedule runs a clock advance
 * skipped); `POST /triggers/{trigger_id}/fire` delivers one trigger now and answers once the
 * delivery (with its retry) is over.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, notFound } from "../http/errors.js";
import { readJson } from "../http/validate.js";
import type { BranchRec, ProjectRec, TriggerRec } from "../store/records.js";
import type { World } from "../store/world.js";
import type { FunctionsFeature } from "./feature.js";

const FireSchema = z.object({ branch_id: z.string().optional(), object_key: z.string().min(1).max(1024).optional() });

/** The branches of live projects that hold trigger `id` (its own copy or an inherited one). */
function holders(world: World, id: string): { project: ProjectRec; branch: BranchRec; trigger: TriggerRec }[] {
  const out: { project: ProjectRec; branch: BranchRec; trigger: TriggerRec }[] = [];
  for (const project of world.projects.values()) {
    if (project.deletedAt !== undefined) continue;
    for (const branch of project.branches.values()) {
      const trigger = branch.triggers.get(id);
      if (trigger !== undefined) out.push({ project, branch, trigger });
    }
  }
  return out;
}

/** The function test routes, to mount under `/__emulator`. */
export function functionAdminRoutes(world: () => World, feature: FunctionsFeature): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  r.get("/invocations", (c) => {
    const limit = Number(c.req.query("limit") ?? "1000");
    const slug = c.req.query("function");
    const branchId = c.req.query("branch_id");
    const invocations = feature.log
      .recent()
      .filter((i) => (slug === undefined || i.function_slug === slug) && (branchId === undefined || i.branch_id === branchId));
    const kept = Number.isInteger(limit) && limit > 0 ? invocations.slice(-limit) : invocations;
    return c.json({ invocations: kept, skipped_schedule_runs: feature.skippedRuns() });
  });

  r.post("/triggers/:trigger_id/fire", async (c) => {
    const id = c.req.param("trigger_id");
    const body = await readJson(c, FireSchema, { optional: true });
    const found = holders(world(), id).filter((h) => body.branch_id === undefined || h.branch.id === body.branch_id);
    if (found.length === 0) throw notFound(`trigger ${id.slice(0, 80)} not found${body.branch_id !== undefined ? ` on branch ${body.branch_id.slice(0, 80)}` : ""}`);
    const own = found.length === 1 ? found : found.filter((h) => !h.trigger.inherited);
    const [target] = own;
    if (target === undefined || own.length > 1) throw badRequest(`trigger ${id} exists on several branches (${found.map((h) => h.branch.id).join(", ")}); name one with branch_id`, [{ path: "branch_id", message: "required when the trigger exists on several branches" }]);
    return c.json(await feature.fire(target.project, target.branch, target.trigger, body.object_key));
  });

  return r;
}
