/**
 * Bucket objects: lookup, delete, delete by prefix, and presigned
 * grants: issuing one for an object, redeeming one for its bucket, and storing an upload's bytes.
 */
import { createHash } from "node:crypto";
import type { BucketRec, ObjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { signGrant, verifyGrant } from "./presign.js";
import { RuleError } from "./rule-error.js";

/** How long a presigned URL lasts when the request names no expiry. */
const DEFAULT_TTL_S = 900;

/** A presigned URL request for one object of a branch's bucket. */
export interface PresignObjectInput {
  projectId: string;
  branchId: string;
  bucket: BucketRec;
  key: string;
  operation: "upload" | "download";
  /** The upload's required `Content-Type` (ignored for downloads). */
  contentType?: string;
  /** @default 900 */
  expiresInSeconds?: number;
}

/** An issued presigned grant: the token for the URL, its method, required content type and expiry. */
export interface PresignedObject {
  token: string;
  method: "PUT" | "GET";
  /** Required `Content-Type` of an upload ("" = any). */
  contentType: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** Where an object lives: its project, branch and bucket, and its key. */
export interface ObjectTarget {
  projectId: string;
  branchId: string;
  bucket: BucketRec;
  key: string;
}

/** What a redeemed presigned URL reaches. */
export interface RedeemedGrant extends ObjectTarget {
  /** Required `Content-Type` of an upload ("" = any). */
  contentType: string;
}

/** The bucket's object `key`, or `not_found`. */
export function findObject(bucket: BucketRec, key: string): ObjectRec {
  const object = bucket.objects.get(key);
  if (object === undefined) throw new RuleError("not_found", `object "${key}" not found in bucket "${bucket.name}"`);
  return object;
}

/** The bytes of an object (seeded objects without a body read as `size` zero bytes); null when its blob is missing. */
export async function readObjectBytes(world: World, object: ObjectRec): Promise<Uint8Array | null> {
  if (object.blob === undefined) return new Uint8Array(object.size);
  return (await world.blobs.get(object.blob)) ?? null;
}

/** Deletes the bucket's object `key` (`not_found` when absent). */
export function deleteObject(bucket: BucketRec, key: string): void {
  if (!bucket.objects.delete(key)) throw new RuleError("not_found", `object "${key}" not found in bucket "${bucket.name}"`);
}

/** Deletes every object whose key starts with `prefix`; returns how many went. */
export function deleteObjectsByPrefix(bucket: BucketRec, prefix: string): number {
  const doomed = [...bucket.objects.keys()].filter((key) => key.startsWith(prefix));
  for (const key of doomed) bucket.objects.delete(key);
  return doomed.length;
}

/** Signs a grant to upload (PUT) or download (GET) one object until the expiry. */
export function presignObject(world: World, input: PresignObjectInput): PresignedObject {
  const method = input.operation === "upload" ? "PUT" : "GET";
  const contentType = input.operation === "upload" ? (input.contentType ?? "") : "";
  const expiresAt = world.clock.now() + (input.expiresInSeconds ?? DEFAULT_TTL_S) * 1000;
  const token = signGrant(world.presignSecret, { projectId: input.projectId, branchId: input.branchId, bucket: input.bucket.name, key: input.key, method, contentType, expiresAt });
  return { token, method, contentType, expiresAt };
}

/** A request made with a presigned URL: a download, or an upload with the `Content-Type` it sent ("" = none). */
export type GrantUse = { method: "GET" } | { method: "PUT"; contentType: string };

/**
 * The bucket and key a token grants for the request: `forbidden` when altered, expired, for the
 * other method, or an upload whose content type differs from the required one; `not_found` once
 * the bucket is gone.
 */
export function redeemGrant(world: World, token: string, use: GrantUse): RedeemedGrant {
  const method = use.method;
  world.now();
  const grant = verifyGrant(world.presignSecret, token, world.clock.now());
  if (grant === "altered") throw new RuleError("forbidden", "the presigned URL is invalid (altered or not issued by this emulator); request a new one with POST …/presign");
  if (grant === "expired") throw new RuleError("forbidden", "the presigned URL has expired; request a new one with POST …/presign");
  if (grant.method !== method) throw new RuleError("forbidden", `this presigned URL is for ${grant.method}, not ${method}`);
  const project = world.projects.get(grant.projectId);
  const bucket = project?.deletedAt === undefined ? project?.branches.get(grant.branchId)?.buckets.get(grant.bucket) : undefined;
  if (bucket === undefined) throw new RuleError("not_found", `bucket "${grant.bucket}" no longer exists`);
  if (use.method === "PUT" && grant.contentType !== "" && use.contentType !== grant.contentType) throw new RuleError("forbidden", `this presigned upload requires Content-Type: ${grant.contentType} (got "${use.contentType || "(none)"}")`);
  return { projectId: grant.projectId, branchId: grant.branchId, bucket, key: grant.key, contentType: grant.contentType };
}

/**
 * Stores an upload (creating or replacing the object), its body in the blob store; `contentType`
 * "" stores none. Tells `world.onObjectCreated` once the object is in place.
 */
export async function putObject(world: World, target: ObjectTarget, upload: { bytes: Uint8Array; contentType: string }): Promise<ObjectRec> {
  const sent = upload.contentType;
  const blob = await world.blobs.put(upload.bytes);
  const object: ObjectRec = {
    key: target.key,
    size: upload.bytes.byteLength,
    etag: `"${createHash("md5").update(upload.bytes).digest("hex")}"`,
    lastModified: world.clock.now(),
    blob,
    ...(sent !== "" ? { contentType: sent } : {}),
  };
  target.bucket.objects.set(target.key, object);
  world.onObjectCreated({ projectId: target.projectId, branchId: target.branchId, bucketName: target.bucket.name, key: target.key });
  return object;
}
