/**
 * Path parameters and visibility: ids are checked against their
 * pattern (400), then the caller must see the resource (404, never 403 across accounts); the
 * project lock (423) is the engine's `requireUnlocked`.
 */
import type { Context } from "hono";
import { bucketNameIssue } from "../../rules/names.js";
import { URL_SEGMENT_ISSUE_MESSAGES, urlSegmentIssue } from "../../rules/url-segment.js";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { roleRank } from "../engine/access.js";
import type { BranchRec, ProjectRec, ProjectRole } from "../store/records.js";
import type { World } from "../store/world.js";
import { type EmulatorHttpError, badRequest, forbidden, notFound } from "./errors.js";
import type { EmulatorEnv } from "./env.js";

const RESOURCE_ID = /^[a-z0-9-]{1,60}$/;

/** Checks a path id against `^[a-z0-9-]{1,60}$` (400 naming the parameter). */
export function checkId(name: string, value: string): void {
  if (!RESOURCE_ID.test(value)) {
    throw badRequest(`path parameter ${name} "${value.slice(0, 80)}" must match ^[a-z0-9-]{1,60}$`, [{ path: name, message: "must match ^[a-z0-9-]{1,60}$" }]);
  }
}

/**
 * Refuses a request whose raw path (as sent, before URL parsing) has a `.` or `..` segment,
 * also percent-encoded: the URL parser would resolve it, so the request would reach a different
 * route than the one it names (`…/buckets/%2e%2e` → the branch itself).
 */
export function checkRawPath(rawUrl: string): void {
  const path = rawUrl.split("?")[0] ?? "";
  // A dot segment is made of `.` and `%2e` only: a path with neither has none.
  if (!path.includes(".") && !path.includes("%")) return;
  const segments = path.split("/");
  const dot = segments.find((segment) => segment !== "" && urlSegmentIssue(segment) === "dot-segment");
  if (dot !== undefined) {
    throw badRequest(`the request path has the segment "${dot}", which ${URL_SEGMENT_ISSUE_MESSAGES["dot-segment"]}; no resource can be named this way`, [{ path: "path", message: "must not contain a . or .. segment" }]);
  }
}

/** Checks a decoded `bucket_name` path parameter against the bucket-name rule (400 naming it). */
export function checkBucketName(value: string): string {
  const issue = bucketNameIssue(value);
  if (issue !== null) {
    const shown = escapeUnsafeText(value.slice(0, 80));
    throw badRequest(`path parameter bucket_name "${shown}" ${issue}`, [{ path: "bucket_name", message: issue }]);
  }
  return value;
}

/** The project named by the path, visible to the caller; `includeDeleted` returns deleted ones too. */
export function visibleProject(world: World, c: Context<EmulatorEnv>, projectId: string, includeDeleted = false): ProjectRec {
  checkId("project_id", projectId);
  const project = world.projects.get(projectId);
  const missing = (): EmulatorHttpError => notFound(`project ${projectId} not found (or not visible to this API key); check the project id`);
  if (project === undefined) throw missing();
  const principal = c.get("principal");
  if (includeDeleted && project.deletedAt !== undefined) {
    const probe = { ...project, deletedAt: undefined };
    if (world.access(principal, probe) !== "visible") throw missing();
    return project;
  }
  const access = world.access(principal, project);
  if (access === "hidden") throw missing();
  if (access === "forbidden") throw forbidden(`this organization API key is limited to another project; it cannot access project ${projectId}`);
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && world.roleOf(principal, project) === "VIEWER") {
    throw forbidden(`your role on project ${projectId} is VIEWER, which is read-only; ask a project ADMIN for the EDITOR role`);
  }
  return project;
}

/** 403 unless the caller holds at least `needed` on the project (checked after visibility). */
export function requireRole(world: World, c: Context<EmulatorEnv>, project: ProjectRec, needed: ProjectRole, action: string): ProjectRole {
  const role = world.roleOf(c.get("principal"), { ...project, deletedAt: undefined });
  if (roleRank(role) < roleRank(needed)) {
    throw forbidden(`${action} on project ${project.id} needs the ${needed} role; yours is ${role ?? "none"}. Ask a project ADMIN`);
  }
  return role ?? needed;
}

/** The branch named by the path under a visible project (branch ids, never names). */
export function visibleBranch(world: World, c: Context<EmulatorEnv>, projectId: string, branchId: string): { project: ProjectRec; branch: BranchRec } {
  const project = visibleProject(world, c, projectId);
  checkId("branch_id", branchId);
  const branch = project.branches.get(branchId);
  if (branch === undefined) throw notFound(`branch ${branchId} not found in project ${projectId}; paths take branch ids (br-…), not names`);
  return { project, branch };
}

/**
 * The project and branch named by the `:project_id` and `:branch_id` path parameters, after due
 * transitions ran; with `feature`, 404 `feature_unavailable` where the region lacks platform features.
 */
export function branchFromPath(world: World, c: Context<EmulatorEnv>, feature?: string): { project: ProjectRec; branch: BranchRec } {
  world.now();
  const found = visibleBranch(world, c, c.req.param("project_id") ?? "", c.req.param("branch_id") ?? "");
  if (feature !== undefined) requireFeatures(world, found.project, feature);
  return found;
}

/** 404 `feature_unavailable` when the project's region has no platform features. */
export function requireFeatures(world: World, project: ProjectRec, feature: string): void {
  if (!world.regionOf(project).features) {
    throw notFound(`${feature} are not available in region ${project.regionId}; use a region with platform features (e.g. aws-us-east-2)`, "feature_unavailable");
  }
}

