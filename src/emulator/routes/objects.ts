/**
 * Bucket objects (api.md §12, emulator.md §7.6): download, delete, delete by prefix, and presigned
 * URLs that the emulator serves itself under `/__emulator/objects/<token>` (uploads create or
 * replace an object; downloads return its bytes).
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ObjectDeleteByPrefixQuerySchema, PresignRequestSchema } from "../../api/wire/index.js";
import { createHash } from "node:crypto";
import { isoTime } from "../engine/clock.js";
import { signGrant, verifyGrant } from "../engine/presign.js";
import { findBucket } from "../engine/storage.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, forbidden, notFound, payloadTooLarge } from "../http/errors.js";
import { readJson, readQuery } from "../http/validate.js";
import { checkBucketName } from "../http/scope.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BucketRec, ObjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { storageScope } from "./storage.js";

const DEFAULT_TTL_S = 900;

/** The bytes of an object (seeded objects without a body read as `size` zero bytes). */
async function objectBytes(world: World, o: ObjectRec): Promise<Uint8Array> {
  if (o.blob === undefined) return new Uint8Array(o.size);
  const bytes = await world.blobs.get(o.blob);
  if (bytes === undefined) throw new EmulatorHttpError(500, { code: "internal_error", message: `the body of object "${o.key}" is missing from the emulator's blob store` });
  return bytes;
}

function download(c: Context<EmulatorEnv>, o: ObjectRec, bytes: Uint8Array): Response {
  const name = o.key.slice(o.key.lastIndexOf("/") + 1) || "object";
  return c.body(Buffer.from(bytes), 200, {
    "Content-Type": o.contentType ?? "application/octet-stream",
    "Content-Length": String(bytes.byteLength),
    ETag: o.etag,
    "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    "X-Content-Type-Options": "nosniff",
  });
}

/** Routes of the object group under `/api/v2`. */
export function objectRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/buckets/:bucket_name";
  const bucketOf = (c: Context<EmulatorEnv>): BucketRec => {
    const { branch } = storageScope(rt, c, "storage");
    return findBucket(branch, checkBucketName(c.req.param("bucket_name") ?? ""));
  };
  const objectOf = (c: Context<EmulatorEnv>): { bucket: BucketRec; object: ObjectRec } => {
    const bucket = bucketOf(c);
    const key = c.req.param("object_key") ?? "";
    const object = bucket.objects.get(key);
    if (object === undefined) throw notFound(`object "${key}" not found in bucket "${bucket.name}"`);
    return { bucket, object };
  };

  r.get(`${base}/objects/:object_key/download`, async (c) => {
    const { object } = objectOf(c);
    return download(c, object, await objectBytes(rt.world, object));
  });

  r.delete(`${base}/objects/:object_key`, (c) => {
    const { bucket, object } = objectOf(c);
    bucket.objects.delete(object.key);
    return c.body(null, 204);
  });

  r.delete(`${base}/objects-by-prefix`, (c) => {
    const bucket = bucketOf(c);
    const { prefix } = readQuery(c, ObjectDeleteByPrefixQuerySchema);
    let deleted = 0;
    for (const key of [...bucket.objects.keys()]) {
      if (key.startsWith(prefix)) {
        bucket.objects.delete(key);
        deleted++;
      }
    }
    return c.json({ deleted });
  });

  r.post(`${base}/objects/:object_key/presign`, async (c) => {
    const world = rt.world;
    const { project, branch } = storageScope(rt, c, "storage");
    const bucket = bucketOf(c);
    const key = c.req.param("object_key");
    const body = await readJson(c, PresignRequestSchema);
    const method = body.operation === "upload" ? "PUT" : "GET";
    const contentType = body.operation === "upload" ? (body.content_type ?? "") : "";
    const expiresAt = world.clock.now() + (body.expires_in_seconds ?? DEFAULT_TTL_S) * 1000;
    const token = signGrant(world.presignSecret, { projectId: project.id, branchId: branch.id, bucket: bucket.name, key, method, contentType, expiresAt });
    return c.json({
      url: `${new URL(c.req.url).origin}/__emulator/objects/${token}`,
      method,
      headers: contentType !== "" ? { "Content-Type": contentType } : {},
      expires_at: isoTime(expiresAt),
    });
  });

  return r;
}

/** `/__emulator/objects/<token>`: presigned uploads (PUT) and downloads (GET), authorised by the token. */
export function presignedObjectRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const grantOf = (c: Context<EmulatorEnv>, method: "PUT" | "GET"): { bucket: BucketRec; key: string; contentType: string } => {
    const world = rt.world;
    world.now();
    const grant = verifyGrant(world.presignSecret, c.req.param("token") ?? "", world.clock.now());
    if (grant === "altered") throw forbidden("the presigned URL is invalid (altered or not issued by this emulator); request a new one with POST …/presign");
    if (grant === "expired") throw forbidden("the presigned URL has expired; request a new one with POST …/presign");
    if (grant.method !== method) throw forbidden(`this presigned URL is for ${grant.method}, not ${method}`);
    const project = world.projects.get(grant.projectId);
    const bucket = project?.deletedAt === undefined ? project?.branches.get(grant.branchId)?.buckets.get(grant.bucket) : undefined;
    if (bucket === undefined) throw notFound(`bucket "${grant.bucket}" no longer exists`);
    return { bucket, key: grant.key, contentType: grant.contentType };
  };

  r.get("/:token", async (c) => {
    const { bucket, key } = grantOf(c, "GET");
    const object = bucket.objects.get(key);
    if (object === undefined) throw notFound(`object "${key}" not found in bucket "${bucket.name}"`);
    return download(c, object, await objectBytes(rt.world, object));
  });

  r.put(
    "/:token",
    bodyLimit({ maxSize: rt.limits.objectBytes, onError: () => { throw payloadTooLarge(`the object body exceeds ${rt.limits.objectBytes} bytes; upload a smaller object`); } }),
    async (c) => {
      const { bucket, key, contentType } = grantOf(c, "PUT");
      const sent = c.req.header("content-type") ?? "";
      if (contentType !== "" && sent !== contentType) throw forbidden(`this presigned upload requires Content-Type: ${contentType} (got "${sent || "(none)"}")`);
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const world = rt.world;
      const blob = await world.blobs.put(bytes);
      const object: ObjectRec = {
        key,
        size: bytes.byteLength,
        etag: `"${createHash("md5").update(bytes).digest("hex")}"`,
        lastModified: world.clock.now(),
        blob,
        ...(sent !== "" ? { contentType: sent } : {}),
      };
      bucket.objects.set(key, object);
      return c.body(null, 200, { ETag: object.etag });
    },
  );

  return r;
}
