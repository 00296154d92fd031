/**
 * Triggers: create, update and delete on a branch. A child branch sees its
 * parent's triggers under the same ids, disabled; updating one makes it the branch's own copy
 * (disabled unless the update enables it); deleting removes it from this branch only.
 */
import { checkCron } from "../../rules/cron.js";
import type { BranchRec, ProjectRec, TriggerRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** The trigger fields a create or update gives (wire values, validated). */
export interface TriggerInput {
  type: "schedule" | "storage_object_created";
  functionSlug?: string;
  name?: string;
  functionPath?: string;
  enabled?: boolean;
  cron?: string;
  storage?: { bucketName: string; prefix?: string };
}

function normalizedCron(cron: string): string {
  const check = checkCron(cron);
  if (!check.valid) throw new RuleError("invalid", `schedule.cron "${cron}" ${check.message}`, { field: "schedule.cron" });
  return check.normalized;
}

function requireFunction(branch: BranchRec, slug: string): void {
  if (!branch.functions.has(slug)) throw new RuleError("not_found", `function_slug: function "${slug}" not found on branch ${branch.id}; deploy it first`);
}

function requireBucket(branch: BranchRec, name: string): void {
  if (!branch.buckets.has(name)) throw new RuleError("not_found", `storage_object_created.bucket_name: bucket "${name}" not found on branch ${branch.id}`);
}

function requireUniqueName(branch: BranchRec, name: string, except?: string): void {
  for (const t of branch.triggers.values()) {
    if (t.name === name && t.id !== except) throw new RuleError("conflict", `a trigger named "${name}" already exists on branch ${branch.id}; choose another name`, { code: "already_exists" });
  }
}

/** A trigger id not used on any branch of the project (ids are unique within a project). */
function newTriggerId(world: World, project: ProjectRec): string {
  for (;;) {
    const id = `trg_${world.ids.hex(16)}`;
    if (![...project.branches.values()].some((b) => b.triggers.has(id))) return id;
  }
}

/** A trigger visible on the branch (its own or inherited), or `not_found`. */
export function findTrigger(branch: BranchRec, id: string): TriggerRec {
  const t = branch.triggers.get(id);
  if (t === undefined) throw new RuleError("not_found", `trigger ${id} not found on branch ${branch.id}`);
  return t;
}

/** Creates a trigger of a function on the branch (enabled unless `enabled: false`). */
export function createTrigger(world: World, project: ProjectRec, branch: BranchRec, input: TriggerInput & { functionSlug: string; name: string }): TriggerRec {
  const cron = input.type === "schedule" && input.cron !== undefined ? normalizedCron(input.cron) : undefined;
  requireFunction(branch, input.functionSlug);
  if (input.storage !== undefined) requireBucket(branch, input.storage.bucketName);
  requireUniqueName(branch, input.name);
  const t: TriggerRec = {
    id: newTriggerId(world, project),
    type: input.type,
    functionSlug: input.functionSlug,
    name: input.name,
    functionPath: input.functionPath ?? "/",
    enabled: input.enabled ?? true,
    version: 1,
    inherited: false,
    ...(cron !== undefined ? { cron } : {}),
    ...(input.storage !== undefined ? { bucketName: input.storage.bucketName, ...(input.storage.prefix ? { prefix: input.storage.prefix } : {}) } : {}),
  };
  branch.triggers.set(t.id, t);
  return t;
}

/** Updates a trigger; an inherited one becomes the branch's own copy, disabled unless enabled here. */
export function updateTrigger(branch: BranchRec, id: string, input: TriggerInput): TriggerRec {
  const t = findTrigger(branch, id);
  if (input.type !== t.type) throw new RuleError("unprocessable", `type "${input.type}" does not match trigger ${t.id}'s type "${t.type}"; a trigger's type cannot change`, { code: "type_mismatch" });
  const cron = input.cron !== undefined ? normalizedCron(input.cron) : undefined;
  if (input.functionSlug !== undefined) requireFunction(branch, input.functionSlug);
  if (input.storage !== undefined) requireBucket(branch, input.storage.bucketName);
  if (input.name !== undefined) requireUniqueName(branch, input.name, t.id);
  const wasInherited = t.inherited;
  if (input.functionSlug !== undefined) t.functionSlug = input.functionSlug;
  if (input.name !== undefined) t.name = input.name;
  if (input.functionPath !== undefined) t.functionPath = input.functionPath;
  if (cron !== undefined && t.type === "schedule") t.cron = cron;
  if (input.storage !== undefined && t.type === "storage_object_created") {
    t.bucketName = input.storage.bucketName;
    if (input.storage.prefix) t.prefix = input.storage.prefix;
    else delete t.prefix;
  }
  t.enabled = input.enabled ?? (wasInherited ? false : t.enabled);
  t.inherited = false;
  t.version += 1;
  return t;
}

/** Removes a trigger from this branch only (the parent keeps its own). */
export function deleteTrigger(branch: BranchRec, id: string): void {
  branch.triggers.delete(findTrigger(branch, id).id);
}
