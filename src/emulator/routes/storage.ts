/**
 * Object storage (api.md §12): feature state, buckets, object listing; and the AI gateway
 * (api.md §17), which shares the storage-style 404 `reason`s. Object download, delete,
 * delete-by-prefix and presigned URLs are in `objects.ts`.
 */
import { Hono, type Context } from "hono";
import { BucketCreateRequestSchema, ObjectListQuerySchema } from "../../api/wire/index.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, conflict, notFound } from "../http/errors.js";
import { checkBucketName, checkId, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { bucketView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";
import { isoTime } from "../engine/clock.js";

/** Visible project and branch with the storage / AI-gateway checks; 404s carry a `reason`, bucket create on a deleted project 410. */
export function storageScope(rt: EmulatorRuntime, c: Context<EmulatorEnv>, feature: "storage" | "ai_gateway", includeDeleted = false): { project: ProjectRec; branch: BranchRec } {
  const world = rt.world;
  world.now();
  const project = visibleProject(world, c, c.req.param("project_id") ?? "", includeDeleted);
  if (project.deletedAt !== undefined) {
    throw new EmulatorHttpError(410, { code: "project_deleted", message: `project ${project.id} is deleted; recover it before creating buckets` });
  }
  const branchId = c.req.param("branch_id") ?? "";
  checkId("branch_id", branchId);
  const branch = project.branches.get(branchId);
  if (branch === undefined) throw notFound(`branch ${branchId} not found in project ${project.id}`, "not_found", "branch_not_found");
  if (feature === "storage" && project.orgId !== undefined && world.orgs.get(project.orgId)?.platformFeatures === false) {
    throw notFound(`object storage is not available: organization ${project.orgId} is not entitled to platform features`, "not_found", "org_not_entitled");
  }
  if (!world.regionOf(project).features) {
    const what = feature === "storage" ? "object storage is" : "the AI gateway is";
    throw notFound(`${what} not available in region ${project.regionId}; use a region with platform features`, "not_found", feature === "storage" ? "region_unavailable" : "ai_gateway_unavailable");
  }
  return { project, branch };
}

/** Routes of the storage and AI gateway group. */
export function storageRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id";

  const scope = (c: Context<EmulatorEnv>, feature: "storage" | "ai_gateway", includeDeleted = false): { project: ProjectRec; branch: BranchRec } => storageScope(rt, c, feature, includeDeleted);

  r.get(`${base}/storage`, (c) => {
    const { project, branch } = scope(c, "storage");
    return c.json({ enabled: true, s3_endpoint: `https://${branch.id}.storage.${rt.world.proxyHost(project.regionId)}`, region: project.regionId, force_path_style: true });
  });

  r.get(`${base}/ai_gateway`, (c) => {
    const { project, branch } = scope(c, "ai_gateway");
    return c.json({ enabled: true, base_url: `https://${branch.id}.ai.${rt.world.proxyHost(project.regionId)}` });
  });

  r.get(`${base}/buckets`, (c) => {
    const { branch } = scope(c, "storage");
    const buckets = [...branch.buckets.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return c.json({ buckets: buckets.map(bucketView) });
  });

  r.post(`${base}/buckets`, async (c) => {
    const { branch } = scope(c, "storage", true);
    const body = await readJson(c, BucketCreateRequestSchema);
    if (branch.buckets.has(body.name)) throw conflict(`bucket "${body.name}" already exists on branch ${branch.id}`, "already_exists");
    const bucket = { name: body.name, accessLevel: body.access_level ?? "private", createdAt: rt.world.clock.now(), inherited: false, objects: new Map() };
    branch.buckets.set(bucket.name, bucket);
    return c.json({ bucket: bucketView(bucket) }, 201);
  });

  r.delete(`${base}/buckets/:bucket_name`, (c) => {
    const { branch } = scope(c, "storage");
    const name = checkBucketName(c.req.param("bucket_name"));
    if (!branch.buckets.delete(name)) throw notFound(`bucket "${name}" not found on branch ${branch.id}`);
    return c.body(null, 204);
  });

  r.get(`${base}/buckets/:bucket_name/objects`, (c) => {
    const { branch } = scope(c, "storage");
    const name = checkBucketName(c.req.param("bucket_name"));
    const bucket = branch.buckets.get(name);
    if (bucket === undefined) throw notFound(`bucket "${name}" not found on branch ${branch.id}`);
    const q = readQuery(c, ObjectListQuerySchema);
    const prefix = q.prefix ?? "";
    const limit = q.limit ?? 100;
    const keys = [...bucket.objects.keys()].filter((k) => k.startsWith(prefix) && (q.cursor === undefined || k > q.cursor)).sort();
    const folders = new Set<string>();
    const objects: { key: string; size: number; last_modified: string; etag: string }[] = [];
    let lastKey: string | undefined;
    let truncated = false;
    for (const key of keys) {
      if (objects.length + folders.size >= limit) {
        truncated = true;
        break;
      }
      lastKey = key;
      if (q.delimiter !== undefined && q.delimiter !== "") {
        const cut = key.indexOf(q.delimiter, prefix.length);
        if (cut >= 0) {
          folders.add(key.slice(0, cut + q.delimiter.length));
          continue;
        }
      }
      const o = bucket.objects.get(key);
      if (o !== undefined) objects.push({ key: o.key, size: o.size, last_modified: isoTime(o.lastModified), etag: o.etag });
    }
    return c.json({ folders: [...folders], objects, prefix, ...(truncated && lastKey !== undefined ? { next_cursor: lastKey } : {}), is_truncated: truncated });
  });

  return r;
}
