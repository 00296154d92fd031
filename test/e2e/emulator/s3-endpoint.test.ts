/**
 * The emulator's S3-compatible endpoint, driven by the real AWS SDK over real HTTP: the five
 * operations on a branch's bucket, SigV4 refusals (another branch's key, a tampered request, a
 * read-only credential), hostile keys, and agreement with the management API's object routes.
 */
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException, CreateMultipartUploadCommand } from "@aws-sdk/client-s3";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator, type TestClient } from "./helpers.js";

interface Credential {
  token_id: string;
  s3_secret_access_key: string;
}

/** The S3 error code (`NoSuchKey`, `AccessDenied`, …) and HTTP status of a failed SDK call, or "ok". */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (err) {
    if (err instanceof S3ServiceException) return `${err.$metadata.httpStatusCode} ${err.name}`;
    throw err;
  }
}

describe("the S3 endpoint of a branch's object storage", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  let s3: S3Client;
  let endpoint: string;
  const branchPath = (branchId: string): string => `/projects/${emu.projectId}/branches/${branchId}`;
  const credential = async (branchId: string, scopes: string[]): Promise<Credential> => {
    const res = await api.call<Credential>("POST", `${branchPath(branchId)}/credentials`, { scopes, principal_type: "user" });
    expect(res.status).toBe(201);
    return res.body;
  };
  const clientFor = (cred: Credential, url = endpoint): S3Client =>
    new S3Client({ endpoint: url, forcePathStyle: true, region: "aws-us-east-2", credentials: { accessKeyId: cred.token_id, secretAccessKey: cred.s3_secret_access_key }, maxAttempts: 1 });

  beforeAll(async () => {
    emu = await startTestEmulator();
    api = client(emu);
    expect((await api.call("POST", `${branchPath(emu.defaultBranchId)}/buckets`, { name: "uploads" })).status).toBe(201);
    const storage = await api.call<{ s3_endpoint: string }>("GET", `${branchPath(emu.defaultBranchId)}/storage`);
    endpoint = storage.body.s3_endpoint;
    s3 = clientFor(await credential(emu.defaultBranchId, ["storage:read", "storage:write"]));
  });
  afterAll(async () => {
    s3?.destroy();
    await emu?.close();
  });

  it("puts, heads, gets, lists and deletes objects, buffered and streamed", async () => {
    const put = await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "in/a b+c ü.txt", Body: "hello", ContentType: "text/plain" }));
    expect(put.ETag).toBe('"5d41402abc4b2a76b9719d911017c592"');
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "in/deep/stream.bin", Body: Readable.from([Buffer.from("abc"), Buffer.from("def")]), ContentLength: 6 }));
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "top.txt", Body: "top" }));
    const head = await s3.send(new HeadObjectCommand({ Bucket: "uploads", Key: "in/a b+c ü.txt" }));
    expect([head.ContentLength, head.ContentType, head.ETag]).toEqual([5, "text/plain", '"5d41402abc4b2a76b9719d911017c592"']);
    const got = await s3.send(new GetObjectCommand({ Bucket: "uploads", Key: "in/deep/stream.bin" }));
    expect(await got.Body?.transformToString()).toBe("abcdef");
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: "uploads", Prefix: "in/", Delimiter: "/" }));
    expect([listed.Contents?.map((o) => [o.Key, o.Size]), listed.CommonPrefixes?.map((p) => p.Prefix), listed.KeyCount, listed.IsTruncated]).toEqual([[["in/a b+c ü.txt", 5]], ["in/deep/"], 2, false]);
    await s3.send(new DeleteObjectCommand({ Bucket: "uploads", Key: "top.txt" }));
    expect(await failure(() => s3.send(new GetObjectCommand({ Bucket: "uploads", Key: "top.txt" })))).toBe("404 NoSuchKey");
    // Deleting a missing key succeeds, as on S3.
    expect(await failure(() => s3.send(new DeleteObjectCommand({ Bucket: "uploads", Key: "top.txt" })))).toBe("ok");
  });

  it("pages a listing with continuation tokens and encodes keys on request", async () => {
    for (const n of [1, 2, 3]) await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: `page/${n}`, Body: String(n) }));
    const first = await s3.send(new ListObjectsV2Command({ Bucket: "uploads", Prefix: "page/", MaxKeys: 2 }));
    expect([first.Contents?.map((o) => o.Key), first.IsTruncated]).toEqual([["page/1", "page/2"], true]);
    const second = await s3.send(new ListObjectsV2Command({ Bucket: "uploads", Prefix: "page/", MaxKeys: 2, ContinuationToken: first.NextContinuationToken }));
    expect([second.Contents?.map((o) => o.Key), second.IsTruncated]).toEqual([["page/3"], false]);
    const encoded = await s3.send(new ListObjectsV2Command({ Bucket: "uploads", Prefix: "in/a", EncodingType: "url" }));
    expect(encoded.Contents?.map((o) => o.Key)).toEqual(["in/a%20b%2Bc%20%C3%BC.txt"]);
    expect(encoded.Contents?.map((o) => decodeURIComponent(o.Key ?? ""))).toEqual(["in/a b+c ü.txt"]);
  });

  it("shares its objects with the management API: listed there and downloadable", async () => {
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "shared/report.csv", Body: "a,b\n1,2\n" }));
    const listing = await api.call<{ objects: { key: string; size: number }[] }>("GET", `${branchPath(emu.defaultBranchId)}/buckets/uploads/objects?prefix=shared/`);
    expect(listing.body.objects.map((o) => [o.key, o.size])).toEqual([["shared/report.csv", 8]]);
    const download = await fetch(`${emu.apiHost}${branchPath(emu.defaultBranchId)}/buckets/uploads/objects/${encodeURIComponent("shared/report.csv")}/download`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(await download.text()).toBe("a,b\n1,2\n");
  });

  it("refuses a key of another branch, a revoked key, a read-only key's writes and a tampered request", async () => {
    const child = await api.call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "s3-other" } });
    const otherCred = await credential(child.body.branch.id, ["storage:read", "storage:write"]);
    const foreign = clientFor(otherCred);
    expect(await failure(() => foreign.send(new GetObjectCommand({ Bucket: "uploads", Key: "in/a b+c ü.txt" })))).toBe("403 InvalidAccessKeyId");
    // The same key works on its own branch's endpoint (the child inherited the bucket).
    const own = clientFor(otherCred, endpoint.replace(emu.defaultBranchId, child.body.branch.id));
    expect(await (await own.send(new GetObjectCommand({ Bucket: "uploads", Key: "in/a b+c ü.txt" }))).Body?.transformToString()).toBe("hello");

    const readOnly = clientFor(await credential(emu.defaultBranchId, ["storage:read"]));
    expect(await failure(() => readOnly.send(new ListObjectsV2Command({ Bucket: "uploads" })))).toBe("ok");
    expect(await failure(() => readOnly.send(new PutObjectCommand({ Bucket: "uploads", Key: "x", Body: "x" })))).toBe("403 AccessDenied");

    const revoked = await credential(emu.defaultBranchId, ["storage:read"]);
    expect((await api.call("DELETE", `${branchPath(emu.defaultBranchId)}/credentials/${revoked.token_id}`)).status).toBe(204);
    expect(await failure(() => clientFor(revoked).send(new ListObjectsV2Command({ Bucket: "uploads" })))).toBe("403 InvalidAccessKeyId");

    const wrongSecret = clientFor({ token_id: otherCred.token_id, s3_secret_access_key: "nsk_live_wrong" }, endpoint.replace(emu.defaultBranchId, child.body.branch.id));
    expect(await failure(() => wrongSecret.send(new ListObjectsV2Command({ Bucket: "uploads" })))).toBe("403 SignatureDoesNotMatch");

    // A request changed after it was signed: another key than the one signed for.
    const tampering = clientFor(await credential(emu.defaultBranchId, ["storage:read", "storage:write"]));
    tampering.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path: string };
        request.path = request.path.replace("/victim.txt", "/other.txt");
        return next(args);
      },
      { step: "deserialize", name: "tamperAfterSigning" },
    );
    expect(await failure(() => tampering.send(new PutObjectCommand({ Bucket: "uploads", Key: "victim.txt", Body: "x" })))).toBe("403 SignatureDoesNotMatch");
    expect(await failure(() => s3.send(new HeadObjectCommand({ Bucket: "uploads", Key: "other.txt" })))).toBe("404 NotFound");
    for (const c of [foreign, own, readOnly, wrongSecret, tampering]) c.destroy();
  });

  it("refuses unsigned requests, a body that differs from its signed hash, and operations it does not emulate", async () => {
    const anonymous = await fetch(`${endpoint}/uploads/in/x`);
    expect([anonymous.status, await anonymous.text()]).toEqual([403, expect.stringContaining("<Code>AccessDenied</Code>")]);
    const swapped = clientFor(await credential(emu.defaultBranchId, ["storage:write"]));
    swapped.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { body: unknown }).body = "evil!";
        return next(args);
      },
      { step: "deserialize", name: "swapBody" },
    );
    expect(await failure(() => swapped.send(new PutObjectCommand({ Bucket: "uploads", Key: "swapped.txt", Body: "good!" })))).toBe("400 XAmzContentSHA256Mismatch");
    expect(await failure(() => s3.send(new CreateMultipartUploadCommand({ Bucket: "uploads", Key: "big.bin" })))).toBe("501 NotImplemented");
    expect(await failure(() => s3.send(new GetObjectCommand({ Bucket: "missing", Key: "x" })))).toBe("404 NoSuchBucket");
    swapped.destroy();
  });

  it.each([
    ["a `..` segment", "a/../b.txt", "400 InvalidArgument"],
    ["a `.` segment", "./b.txt", "400 InvalidArgument"],
    ["a newline", "a\nb.txt", "400 InvalidArgument"],
    ["a NUL", "a\u0000b", "400 InvalidArgument"],
    ["1,025 bytes", "k".repeat(1025), "400 KeyTooLongError"],
  ])("refuses a key with %s and stores nothing", async (_what, key, expected) => {
    expect(await failure(() => s3.send(new PutObjectCommand({ Bucket: "uploads", Key: key, Body: "x" })))).toBe(expected);
    const listing = await s3.send(new ListObjectsV2Command({ Bucket: "uploads" }));
    expect(listing.Contents?.some((o) => o.Key === key)).toBe(false);
  });

  it("accepts a key of exactly 1,024 bytes", async () => {
    const key = `long/${"é".repeat(509)}x`;
    expect(Buffer.byteLength(key)).toBe(1024);
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: key, Body: "long" }));
    expect(await (await s3.send(new GetObjectCommand({ Bucket: "uploads", Key: key }))).Body?.transformToString()).toBe("long");
  });
});

describe("the S3 snippet of docs/emulator.md", () => {
  it("runs as written against a fresh emulator and prints the object it stored", async () => {
    const root = join(import.meta.dirname, "..", "..", "..");
    const docs = readFileSync(join(root, "docs", "emulator.md"), "utf8");
    const section = docs.slice(docs.indexOf("## The S3 endpoint"));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(code).toContain("new S3Client");
    const emu = await startTestEmulator();
    try {
      const env = { ...process.env, SVC_API_HOST: emu.apiHost, SVC_API_KEY: emu.apiKey, SVC_PROJECT_ID: emu.projectId, SVC_BRANCH_ID: emu.defaultBranchId };
      const { stdout } = await promisify(execFile)(process.execPath, ["--no-warnings", "--input-type=module", "-e", code], { cwd: root, env });
      expect(stdout).toBe("a,b\n1,2\n\n");
    } finally {
      await emu.close();
    }
  }, 30_000);
});
