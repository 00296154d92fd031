/**
 * The minimal S3-compatible endpoint of a branch's object storage: path-style requests under
 * `{url}/s3/<branch id>` (`/<bucket>` and `/<bucket>/<key>`), signed with Signature Version 4 by
 * the branch's key pair or one of its storage credentials. Operations: `GetObject`, `HeadObject`,
 * `PutObject` (one request; the body as is, hashed, or `aws-chunked` unsigned), `DeleteObject`,
 * `ListObjectsV2` and `HeadBucket`; anything else answers 501 `NotImplemented`. Errors are S3's
 * XML documents. Paths are read raw, as signed: a URL parser would resolve `..` and `%2F`.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { bucketNameIssue } from "../../rules/names.js";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { putObject, readObjectBytes } from "../engine/objects.js";
import { RuleError } from "../engine/rule-error.js";
import { listObjects, storageBranch } from "../engine/storage.js";
import type { EmulatorEnv } from "../http/env.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, BucketRec, ObjectRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { decodeAwsChunked } from "./aws-chunked.js";
import { storageGrant } from "./credentials.js";
import { objectKeyIssue } from "./object-keys.js";
import { decodeComponent, sha256Hex, verifySignature, type SignedRequest } from "./sigv4.js";
import { errorXml, listResultXml } from "./xml.js";

/** Where the endpoint is mounted on the emulator's origin. */
export const S3_PATH_PREFIX = "/s3";

/** Sub-resources and operations of S3 that this endpoint does not emulate (multipart uploads, ACLs, tags, …). */
const UNSUPPORTED_QUERY = new Set(["uploads", "uploadId", "partNumber", "acl", "tagging", "retention", "legal-hold", "attributes", "torrent", "restore", "select", "versions", "versioning", "policy", "cors", "lifecycle", "location", "delete"]);

/** Room for `aws-chunked` framing beyond the object limit. */
const CHUNK_FRAMING_BYTES = 64 * 1024;

/** An S3 error: status, S3 code and message. */
class S3Error extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 405 | 413 | 500 | 501,
    readonly code: string,
    message: string,
    readonly extra: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** The parts of an endpoint path: `/s3/<branch>[/<bucket>[/<key>]]`, each decoded once. */
interface S3Address {
  branchId: string;
  bucket?: string;
  key?: string;
}

function parseAddress(rawPath: string): S3Address {
  const rest = rawPath.slice(S3_PATH_PREFIX.length + 1);
  const slash = rest.indexOf("/");
  const branchId = slash < 0 ? rest : rest.slice(0, slash);
  const after = slash < 0 ? "" : rest.slice(slash + 1);
  const bucketEnd = after.indexOf("/");
  const rawBucket = bucketEnd < 0 ? after : after.slice(0, bucketEnd);
  const rawKey = bucketEnd < 0 ? "" : after.slice(bucketEnd + 1);
  const bucket = decodeComponent(rawBucket);
  const key = decodeComponent(rawKey);
  if (bucket === null || key === null) throw new S3Error(400, "InvalidURI", "the request path is not valid percent-encoded UTF-8");
  return { branchId, ...(bucket !== "" ? { bucket } : {}), ...(key !== "" ? { key } : {}) };
}

/** The branch of a live project with this id (branch ids are unique across the emulator). */
function findBranch(world: World, branchId: string): { project: ProjectRec; branch: BranchRec } | undefined {
  for (const project of world.projects.values()) {
    if (project.deletedAt !== undefined) continue;
    const branch = project.branches.get(branchId);
    if (branch !== undefined) return { project, branch };
  }
  return undefined;
}

function headerMap(c: Context<EmulatorEnv>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const raw = c.env?.incoming?.rawHeaders;
  const add = (name: string, value: string): void => {
    const lower = name.toLowerCase();
    map.set(lower, [...(map.get(lower) ?? []), value]);
  };
  if (raw !== undefined) for (let i = 0; i + 1 < raw.length; i += 2) add(raw[i] ?? "", raw[i + 1] ?? "");
  else for (const [name, value] of c.req.raw.headers) add(name, value);
  return map;
}

/** The request line as sent (path still encoded, query string), from Node's raw URL when available. */
function rawTarget(c: Context<EmulatorEnv>): { path: string; query: string } {
  const raw = c.env?.incoming?.url ?? `${new URL(c.req.url).pathname}${new URL(c.req.url).search}`;
  const q = raw.indexOf("?");
  return { path: q < 0 ? raw : raw.slice(0, q), query: q < 0 ? "" : raw.slice(q + 1) };
}

function queryParams(rawQuery: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const item of rawQuery.split("&")) {
    if (item === "") continue;
    const eq = item.indexOf("=");
    const name = decodeComponent(eq < 0 ? item : item.slice(0, eq));
    const value = decodeComponent(eq < 0 ? "" : item.slice(eq + 1));
    if (name === null || value === null) throw new S3Error(400, "InvalidArgument", "the query string is not valid percent-encoded UTF-8");
    params.set(name, value);
  }
  return params;
}

/** The request body, checked against its signed payload hash, and decoded when it is `aws-chunked`. */
async function readBody(c: Context<EmulatorEnv>, payloadHash: string, limit: number): Promise<Uint8Array> {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  let bytes: Uint8Array = raw;
  if (payloadHash === "STREAMING-UNSIGNED-PAYLOAD-TRAILER") {
    const decoded = decodeAwsChunked(raw);
    if (!decoded.ok) throw new S3Error(400, "IncompleteBody", `the aws-chunked body is malformed: ${decoded.message}`);
    bytes = decoded.bytes;
  } else if (payloadHash.startsWith("STREAMING-")) {
    throw new S3Error(501, "NotImplemented", `x-amz-content-sha256 ${payloadHash.slice(0, 60)} (signed chunks) is not supported by the emulator: send the payload's SHA-256, UNSIGNED-PAYLOAD or STREAMING-UNSIGNED-PAYLOAD-TRAILER`);
  } else if (payloadHash !== "UNSIGNED-PAYLOAD" && sha256Hex(raw) !== payloadHash) {
    throw new S3Error(400, "XAmzContentSHA256Mismatch", "the body's SHA-256 does not match the x-amz-content-sha256 header");
  }
  if (bytes.byteLength > limit) throw new S3Error(413, "EntityTooLarge", `the object is ${bytes.byteLength} bytes; the emulator accepts at most ${limit} bytes per object`);
  return bytes;
}

function objectHeaders(o: ObjectRec, rid: string): Record<string, string> {
  return {
    "Content-Type": o.contentType ?? "application/octet-stream",
    "Content-Length": String(o.size),
    ETag: o.etag,
    "Last-Modified": new Date(o.lastModified).toUTCString(),
    "x-amz-request-id": rid,
  };
}

/** Base64url of a key: the opaque continuation token of a listing. */
function tokenOf(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

function listBucket(bucket: BucketRec, params: Map<string, string>): string {
  const maxText = params.get("max-keys") ?? "1000";
  if (!/^\d{1,7}$/.test(maxText)) throw new S3Error(400, "InvalidArgument", "max-keys must be a whole number");
  const maxKeys = Math.min(1000, Number(maxText));
  const encoding = params.get("encoding-type");
  if (encoding !== undefined && encoding !== "url") throw new S3Error(400, "InvalidArgument", "encoding-type must be url");
  const token = params.get("continuation-token");
  const cursor = token !== undefined ? Buffer.from(token, "base64url").toString("utf8") : params.get("start-after");
  const prefix = params.get("prefix") ?? "";
  const delimiter = params.get("delimiter");
  const page = listObjects(bucket, { prefix, ...(delimiter !== undefined ? { delimiter } : {}), ...(cursor !== undefined && cursor !== "" ? { cursor } : {}), limit: Math.max(1, maxKeys) });
  return listResultXml({
    bucket: bucket.name,
    prefix,
    ...(delimiter !== undefined ? { delimiter } : {}),
    maxKeys,
    ...(token !== undefined ? { continuationToken: token } : {}),
    ...(page.nextCursor !== undefined ? { nextContinuationToken: tokenOf(page.nextCursor) } : {}),
    ...(params.has("start-after") ? { startAfter: params.get("start-after") ?? "" } : {}),
    ...(encoding === "url" ? { encodingType: "url" as const } : {}),
    objects: maxKeys === 0 ? [] : page.objects,
    commonPrefixes: maxKeys === 0 ? [] : page.folders,
  });
}

async function handle(rt: EmulatorRuntime, c: Context<EmulatorEnv>): Promise<Response> {
  const rid = c.get("rid");
  const world = rt.world;
  const method = c.req.method;
  const target = rawTarget(c);
  const address = parseAddress(target.path);
  const params = queryParams(target.query);
  const found = findBranch(world, address.branchId);
  const grantOf = (id: string) => (found === undefined ? null : storageGrant(world, found.project, found.branch, id));
  const request: SignedRequest = { method, rawPath: target.path, rawQuery: target.query, headers: headerMap(c) };
  const verdict = verifySignature(request, (id) => grantOf(id)?.secret ?? null, Date.now());
  if ("code" in verdict) throw new S3Error(verdict.code === "AuthorizationHeaderMalformed" || verdict.code === "InvalidRequest" ? 400 : 403, verdict.code, verdict.message);
  if (found === undefined) throw new S3Error(403, "InvalidAccessKeyId", "the access key id does not exist for this branch's object storage");
  const grant = grantOf(verdict.accessKeyId);
  const writes = method === "PUT" || method === "DELETE" || method === "POST";
  if (grant === null || !(writes ? grant.write : grant.read)) {
    throw new S3Error(403, "AccessDenied", `this credential lacks the storage:${writes ? "write" : "read"} scope on branch ${found.branch.id}`);
  }
  for (const name of params.keys()) {
    if (UNSUPPORTED_QUERY.has(name)) throw new S3Error(501, "NotImplemented", `the ?${name} operation is not emulated; the endpoint serves GetObject, HeadObject, PutObject, DeleteObject, ListObjectsV2 and HeadBucket`);
  }
  try {
    storageBranch(world, found.project, found.branch.id, "storage");
  } catch (err) {
    if (err instanceof RuleError) throw new S3Error(404, "NoSuchBucket", err.message);
    throw err;
  }
  if (address.bucket === undefined) throw new S3Error(501, "NotImplemented", "ListBuckets is not emulated; list the branch's buckets with GET …/buckets of the management API");
  const bucketIssue = bucketNameIssue(address.bucket);
  const bucket = bucketIssue === null ? found.branch.buckets.get(address.bucket) : undefined;
  if (bucket === undefined) throw new S3Error(404, "NoSuchBucket", `bucket "${escapeUnsafeText(address.bucket.slice(0, 80))}" does not exist on branch ${found.branch.id}`, { BucketName: address.bucket.slice(0, 80) });
  if (address.key === undefined) {
    if (method === "HEAD") return c.body(null, 200, { "x-amz-request-id": rid });
    if (method === "GET" && params.get("list-type") === "2") return c.body(listBucket(bucket, params), 200, { "Content-Type": "application/xml", "x-amz-request-id": rid });
    throw new S3Error(501, "NotImplemented", `${method} on a bucket is not emulated; use ListObjectsV2 (GET ?list-type=2) or HeadBucket`);
  }
  const key = address.key;
  const keyIssue = objectKeyIssue(key);
  if (keyIssue !== null) throw new S3Error(400, keyIssue.startsWith("is ") && keyIssue.includes("bytes long") ? "KeyTooLongError" : "InvalidArgument", `the object key ${keyIssue}`);
  if (method === "GET" || method === "HEAD") {
    const object = bucket.objects.get(key);
    if (object === undefined) throw new S3Error(404, "NoSuchKey", "the specified key does not exist", { Key: key });
    if (method === "HEAD") return c.body(null, 200, objectHeaders(object, rid));
    const bytes = await readObjectBytes(world, object);
    if (bytes === null) throw new Error(`the body of object "${key}" is missing from the emulator's blob store`);
    return c.body(Buffer.from(bytes), 200, objectHeaders(object, rid));
  }
  if (method === "PUT") {
    const payloadHash = request.headers.get("x-amz-content-sha256")?.[0] ?? "";
    const bytes = await readBody(c, payloadHash, rt.limits.objectBytes);
    const object = await putObject(world, { projectId: found.project.id, branchId: found.branch.id, bucket, key }, { bytes, contentType: c.req.header("content-type") ?? "" });
    return c.body(null, 200, { ETag: object.etag, "x-amz-request-id": rid });
  }
  if (method === "DELETE") {
    // S3 answers 204 whether or not the key existed.
    bucket.objects.delete(key);
    return c.body(null, 204, { "x-amz-request-id": rid });
  }
  throw new S3Error(405, "MethodNotAllowed", `${method} is not allowed on an object; use GET, HEAD, PUT or DELETE`);
}

/**
 * The S3 endpoint's routes, mounted at {@link S3_PATH_PREFIX}. `commit` makes an acknowledged
 * upload or delete durable (data dir) before the answer is sent.
 */
export function s3Routes(rt: EmulatorRuntime, commit: () => Promise<void>): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const limit = bodyLimit({
    maxSize: rt.limits.objectBytes + CHUNK_FRAMING_BYTES,
    onError: () => {
      throw new S3Error(413, "EntityTooLarge", `the request body exceeds ${rt.limits.objectBytes} bytes; the emulator accepts at most that per object`);
    },
  });
  r.use("*", async (c, next) => {
    await next();
    if ((c.req.method === "PUT" || c.req.method === "DELETE") && c.res.status < 300) await commit();
  });
  r.all("/*", limit, (c) => handle(rt, c));
  r.onError((err, c) => {
    const rid = c.get("rid");
    if (!(err instanceof S3Error)) {
      rt.notice(`internal error on the S3 endpoint (${c.req.method}, request ${rid}): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      err = new S3Error(500, "InternalError", `the emulator failed on this request (request id ${rid}); see its stderr`);
    }
    const e = err as S3Error;
    const status = e.status;
    // The rest of an unread body cannot be reused on this connection.
    const headers: Record<string, string> = { "Content-Type": "application/xml", "x-amz-request-id": rid, ...(status === 413 ? { Connection: "close" } : {}) };
    if (c.req.method === "HEAD") return c.body(null, status, headers);
    return c.body(errorXml(e.code, e.message, rid, e.extra), status, headers);
  });
  return r;
}
