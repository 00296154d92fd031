/**
 * Object storage: feature state, buckets, object listing; and the AI gateway,
 * which shares the storage-style 404 `reason`s. Bucket rules and the listing walk
 * are `engine/storage.ts`; object download, delete, delete-by-prefix and presigned URLs are in
 * `objects.ts`.
 */
import { Hono, type Context } from "hono";
import { BucketCreateRequestSchema, ObjectListQuerySchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { createBucket, deleteBucket, findBucket, listBuckets, listObjects, requireLiveProject, storageBranch, type StorageFeature } from "../engine/storage.js";
import { aiGatewayUrl } from "../engine/service-urls.js";
import type { EmulatorEnv } from "../http/env.js";
import { checkBucketName, checkId, visibleProject } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { bucketView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import { S3_PATH_PREFIX } from "../s3/routes.js";
import type { BranchRec, ProjectRec } from "../store/records.js";

/** Visible project and branch with the storage / AI-gateway checks; 404s carry a `reason`, bucket create on a deleted project 410. */
export function storageScope(rt: EmulatorRuntime, c: Context<EmulatorEnv>, feature: StorageFeature, includeDeleted = false): { project: ProjectRec; branch: BranchRec } {
  rt.world.now();
  const project = visibleProject(rt.world, c, c.req.param("project_id") ?? "", includeDeleted);
  requireLiveProject(project);
  const branchId = c.req.param("branch_id") ?? "";
  checkId("branch_id", branchId);
  return { project, branch: storageBranch(rt.world, project, branchId, feature) };
}

/** Routes of the storage and AI gateway group. */
export function storageRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id";

  const scope = (c: Context<EmulatorEnv>, feature: StorageFeature, includeDeleted = false): { project: ProjectRec; branch: BranchRec } => storageScope(rt, c, feature, includeDeleted);

  r.get(`${base}/storage`, (c) => {
    const { project, branch } = scope(c, "storage");
    // The branch's S3-compatible endpoint on the emulator's own origin (path-style, SigV4).
    return c.json({ enabled: true, s3_endpoint: `${new URL(c.req.url).origin}${S3_PATH_PREFIX}/${branch.id}`, region: project.regionId, force_path_style: true });
  });

  r.get(`${base}/ai_gateway`, (c) => {
    const { project, branch } = scope(c, "ai_gateway");
    return c.json({ enabled: true, base_url: aiGatewayUrl(rt.world, project, branch) });
  });

  r.get(`${base}/buckets`, (c) => {
    const { branch } = scope(c, "storage");
    return c.json({ buckets: listBuckets(branch).map(bucketView) });
  });

  r.post(`${base}/buckets`, async (c) => {
    const { branch } = scope(c, "storage", true);
    const body = await readJson(c, BucketCreateRequestSchema);
    return c.json({ bucket: bucketView(createBucket(rt.world, branch, body)) }, 201);
  });

  r.delete(`${base}/buckets/:bucket_name`, (c) => {
    const { branch } = scope(c, "storage");
    deleteBucket(branch, checkBucketName(c.req.param("bucket_name")));
    return c.body(null, 204);
  });

  r.get(`${base}/buckets/:bucket_name/objects`, (c) => {
    const { branch } = scope(c, "storage");
    const bucket = findBucket(branch, checkBucketName(c.req.param("bucket_name")));
    const page = listObjects(bucket, readQuery(c, ObjectListQuerySchema));
    return c.json({
      folders: page.folders,
      objects: page.objects.map((o) => ({ key: o.key, size: o.size, last_modified: isoTime(o.lastModified), etag: o.etag })),
      prefix: page.prefix,
      ...(page.nextCursor !== undefined ? { next_cursor: page.nextCursor } : {}),
      is_truncated: page.truncated,
    });
  });

  return r;
}
