/**
 * Buckets and object listing of a branch: bucket names are unique per branch; a
 * listing walks keys in order after a cursor, folds keys under a delimiter into folders, and
 * stops after `limit` entries (objects and folders together).
 */
import type { BucketCreateRequest, ObjectListQuery } from "../../api/wire/index.js";
import type { BranchRec, BucketRec, ObjectRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** One page of a bucket listing. */
export interface ObjectListing {
  /** Common prefixes up to and including the delimiter, in key order. */
  folders: string[];
  objects: ObjectRec[];
  prefix: string;
  /** The last key walked when the page is full (the next page's cursor). */
  nextCursor?: string;
  truncated: boolean;
}

/** What a storage-style route serves. */
export type StorageFeature = "storage" | "ai_gateway";

/** Refuses (`gone`, 410 `project_deleted`) a deleted project: buckets are created only on live ones. */
export function requireLiveProject(project: ProjectRec): void {
  if (project.deletedAt !== undefined) throw new RuleError("gone", `project ${project.id} is deleted; recover it before creating buckets`, { code: "project_deleted" });
}

/**
 * The project's branch `branchId` where `feature` is available; `not_found` with a `reason`:
 * `branch_not_found`, `org_not_entitled` (storage, organization without platform features),
 * `region_unavailable` or `ai_gateway_unavailable` (region without platform features).
 */
export function storageBranch(world: World, project: ProjectRec, branchId: string, feature: StorageFeature): BranchRec {
  const branch = project.branches.get(branchId);
  if (branch === undefined) throw new RuleError("not_found", `branch ${branchId} not found in project ${project.id}`, { reason: "branch_not_found" });
  if (feature === "storage" && project.orgId !== undefined && world.orgs.get(project.orgId)?.platformFeatures === false) {
    throw new RuleError("not_found", `object storage is not available: organization ${project.orgId} is not entitled to platform features`, { reason: "org_not_entitled" });
  }
  if (!world.regionOf(project).features) {
    const what = feature === "storage" ? "object storage is" : "the AI gateway is";
    throw new RuleError("not_found", `${what} not available in region ${project.regionId}; use a region with platform features`, { reason: feature === "storage" ? "region_unavailable" : "ai_gateway_unavailable" });
  }
  return branch;
}

/** The branch's buckets by name. */
export function listBuckets(branch: BranchRec): BucketRec[] {
  return [...branch.buckets.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The branch's bucket `name`, or `not_found`. */
export function findBucket(branch: BranchRec, name: string): BucketRec {
  const bucket = branch.buckets.get(name);
  if (bucket === undefined) throw new RuleError("not_found", `bucket "${name}" not found on branch ${branch.id}`);
  return bucket;
}

/** Creates an empty bucket (private unless the request says otherwise). */
export function createBucket(world: World, branch: BranchRec, input: BucketCreateRequest): BucketRec {
  if (branch.buckets.has(input.name)) throw new RuleError("conflict", `bucket "${input.name}" already exists on branch ${branch.id}`, { code: "already_exists" });
  const bucket: BucketRec = { name: input.name, accessLevel: input.access_level ?? "private", createdAt: world.clock.now(), inherited: false, objects: new Map() };
  branch.buckets.set(bucket.name, bucket);
  return bucket;
}

/** Deletes a bucket with its objects (`not_found` when absent). */
export function deleteBucket(branch: BranchRec, name: string): void {
  if (!branch.buckets.delete(name)) throw new RuleError("not_found", `bucket "${name}" not found on branch ${branch.id}`);
}

/** One page of the bucket's objects under `prefix` (default: all, 100 entries). */
export function listObjects(bucket: BucketRec, q: ObjectListQuery): ObjectListing {
  const prefix = q.prefix ?? "";
  const limit = q.limit ?? 100;
  const keys = [...bucket.objects.keys()].filter((k) => k.startsWith(prefix) && (q.cursor === undefined || k > q.cursor)).sort();
  const folders = new Set<string>();
  const objects: ObjectRec[] = [];
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
    if (o !== undefined) objects.push(o);
  }
  return { folders: [...folders], objects, prefix, ...(truncated && lastKey !== undefined ? { nextCursor: lastKey } : {}), truncated };
}
