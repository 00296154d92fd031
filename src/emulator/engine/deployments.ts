/**
 * Functions and their deployments: the first deployment to a slug
 * creates the function, a deployment to an inherited function makes it branch-local (copy on
 * write), omitted parts inherit from the latest deployment, the environment merges per name, and
 * builds go `pending` → `building` → `completed` | `failed` on stored deadlines.
 */
import type { BranchRec, DeploymentRec, FunctionRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** Memory of every deployment: the platform's fixed 2048 MiB (functions cannot choose it). */
export const DEPLOYMENT_MEMORY_MIB = 2048;

/** Schedules the remaining build transitions of a deployment (a no-op once it has ended). */
export function scheduleBuild(world: World, d: DeploymentRec): void {
  if (d.status === "completed" || d.status === "failed") return;
  world.scheduler.at(d.buildingAt, () => {
    if (d.status === "pending") d.status = "building";
  });
  world.scheduler.at(d.finishAt, () => {
    if (d.buildError === null) d.status = "completed";
    else {
      d.status = "failed";
      d.error = d.buildError;
    }
  });
}

/** The environment of a new deployment: the previous one with `changes` applied (an empty value deletes the name). */
export function mergeEnvironment(previous: ReadonlyMap<string, string> | undefined, changes: Readonly<Record<string, string>> | undefined): Map<string, string> {
  const environment = new Map(previous ?? []);
  for (const [name, value] of Object.entries(changes ?? {})) {
    if (value === "") environment.delete(name);
    else environment.set(name, value);
  }
  return environment;
}

/** A deployment request, parsed and checked (the archive already stored). */
export interface DeploymentInput {
  /** The uploaded archive: its blob and the build outcome decided from its contents (`null` = completes). */
  archive?: { sha256: string; buildError: string | null };
  runtime?: string;
  environment?: Record<string, string>;
}

/**
 * Adds a deployment to `slug` on the branch: creates the function on its first deployment (which
 * must carry the archive), makes an inherited function branch-local, and starts the build.
 */
export function deployFunction(world: World, branch: BranchRec, slug: string, input: DeploymentInput): { fn: FunctionRec; deployment: DeploymentRec } {
  const existing = branch.functions.get(slug);
  const previous = existing?.deployments.at(-1);
  if (previous === undefined && input.archive === undefined) {
    throw new RuleError("unprocessable", `function "${slug}" has no deployment on branch ${branch.id} yet: the first deployment must include the zip part`, { code: "zip_required" });
  }
  const now = world.clock.now();
  const fn: FunctionRec = existing ?? { id: world.ids.uuid(), slug, name: slug, createdAt: now, inherited: false, deployments: [] };
  if (fn.inherited) {
    // Copy on write: the branch's own copy from now on, apart from the parent's.
    fn.inherited = false;
    fn.deployments = fn.deployments.map((d) => ({ ...d, environment: new Map(d.environment) }));
  }
  branch.functions.set(slug, fn);
  const buildingAt = now + world.timings.deployPendingMs;
  const deployment: DeploymentRec = {
    id: (previous?.id ?? 0) + 1,
    status: "pending",
    runtime: input.runtime ?? previous?.runtime ?? "nodejs24",
    memoryMib: DEPLOYMENT_MEMORY_MIB,
    createdAt: now,
    environment: mergeEnvironment(previous?.environment, input.environment),
    zipSha256: input.archive?.sha256 ?? previous?.zipSha256 ?? "",
    buildError: input.archive !== undefined ? input.archive.buildError : (previous?.buildError ?? null),
    buildingAt,
    finishAt: buildingAt + world.timings.deployBuildMs,
  };
  fn.deployments.push(deployment);
  scheduleBuild(world, deployment);
  return { fn, deployment };
}

/** A function deployed on this branch; merely inherited ones (and missing ones) are not found. */
export function localFunction(branch: BranchRec, slug: string): FunctionRec {
  const fn = branch.functions.get(slug);
  if (fn === undefined || fn.inherited) {
    throw new RuleError("not_found", `function "${slug}" not found on branch ${branch.id}${fn?.inherited ? " (it is inherited from the parent branch: deploy it here first)" : ""}`);
  }
  return fn;
}

/** Renames a branch-local function; `null` resets the name to the slug. */
export function renameFunction(branch: BranchRec, slug: string, name: string | null): FunctionRec {
  const fn = localFunction(branch, slug);
  fn.name = name ?? fn.slug;
  return fn;
}

/** Deletes a branch-local function with its triggers and custom domains (our choice). */
export function deleteFunction(world: World, project: ProjectRec, branch: BranchRec, slug: string): void {
  const fn = localFunction(branch, slug);
  branch.functions.delete(fn.slug);
  for (const [id, t] of [...branch.triggers]) if (t.functionSlug === fn.slug) branch.triggers.delete(id);
  for (const [domain, d] of [...world.domains]) if (d.projectId === project.id && d.branchId === branch.id && d.entityId === fn.slug) world.domains.delete(domain);
}
