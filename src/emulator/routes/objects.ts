/**
 * Bucket objects: download, delete, delete by prefix, and presigned
 * URLs that the emulator serves itself under `/__emulator/objects/<token>` (uploads create or
 * replace an object; downloads return its bytes).
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ObjectDeleteByPrefixQuerySchema, PresignRequestSchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { deleteObject, deleteObjectsByPrefix, findObject, presignObject, putObject, readObjectBytes, redeemGrant } from "../engine/objects.js";
import { findBucket } from "../engine/storage.js";
import type { EmulatorEnv } from "../http/env.js";
import { EmulatorHttpError, payloadTooLarge } from "../http/errors.js";
import { readJson, readQuery } from "../http/validate.js";
import { checkBucketName } from "../http/scope.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BucketRec, ObjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { storageScope } from "./storage.js";

/** The bytes of an object; a blob missing from the store is a 500. */
async function objectBytes(world: World, o: ObjectRec): Promise<Uint8Array> {
  const bytes = await readObjectBytes(world, o);
  if (bytes === null) throw new EmulatorHttpError(500, { code: "internal_error", message: `the body of object "${o.key}" is missing from the emulator's blob store` });
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

  r.get(`${base}/objects/:object_key/download`, async (c) => {
    const object = findObject(bucketOf(c), c.req.param("object_key") ?? "");
    return download(c, object, await objectBytes(rt.world, object));
  });

  r.delete(`${base}/objects/:object_key`, (c) => {
    deleteObject(bucketOf(c), c.req.param("object_key") ?? "");
    return c.body(null, 204);
  });

  r.delete(`${base}/objects-by-prefix`, (c) => {
    const bucket = bucketOf(c);
    const { prefix } = readQuery(c, ObjectDeleteByPrefixQuerySchema);
    return c.json({ deleted: deleteObjectsByPrefix(bucket, prefix) });
  });

  r.post(`${base}/objects/:object_key/presign`, async (c) => {
    const { project, branch } = storageScope(rt, c, "storage");
    const bucket = bucketOf(c);
    const key = c.req.param("object_key");
    const body = await readJson(c, PresignRequestSchema);
    const grant = presignObject(rt.world, {
      projectId: project.id,
      branchId: branch.id,
      bucket,
      key,
      operation: body.operation,
      ...(body.content_type !== undefined ? { contentType: body.content_type } : {}),
      ...(body.expires_in_seconds !== undefined ? { expiresInSeconds: body.expires_in_seconds } : {}),
    });
    return c.json({
      url: `${new URL(c.req.url).origin}/__emulator/objects/${grant.token}`,
      method: grant.method,
      headers: grant.contentType !== "" ? { "Content-Type": grant.contentType } : {},
      expires_at: isoTime(grant.expiresAt),
    });
  });

  return r;
}

/** `/__emulator/objects/<token>`: presigned uploads (PUT) and downloads (GET), authorised by the token. */
export function presignedObjectRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  r.get("/:token", async (c) => {
    const { bucket, key } = redeemGrant(rt.world, c.req.param("token") ?? "", { method: "GET" });
    const object = findObject(bucket, key);
    return download(c, object, await objectBytes(rt.world, object));
  });

  r.put(
    "/:token",
    bodyLimit({ maxSize: rt.limits.objectBytes, onError: () => { throw payloadTooLarge(`the object body exceeds ${rt.limits.objectBytes} bytes; upload a smaller object`); } }),
    async (c) => {
      const contentType = c.req.header("content-type") ?? "";
      const grant = redeemGrant(rt.world, c.req.param("token") ?? "", { method: "PUT", contentType });
      const object = await putObject(rt.world, grant, { bytes: new Uint8Array(await c.req.arrayBuffer()), contentType });
      return c.body(null, 200, { ETag: object.etag });
    },
  );

  return r;
}
