/** Bucket objects' and presigned grants' domain functions on an in-memory world, without HTTP. */
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { deleteObject, deleteObjectsByPrefix, findObject, presignObject, putObject, redeemGrant } from "../../../src/emulator/engine/objects.js";
import { createBucket, deleteBucket } from "../../../src/emulator/engine/storage.js";
import type { BucketRec } from "../../../src/emulator/store/records.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("objects", () => {
  let bucket: BucketRec;
  beforeEach(() => {
    const w = unitWorld();
    bucket = createBucket(w.world, w.main, { name: "media" });
    for (const key of ["a.txt", "img/1.png", "img/2.png", "imgs.txt"]) bucket.objects.set(key, { key, size: 1, etag: `"${key}"`, lastModified: 0 });
  });

  it("finds and deletes an object once", () => {
    expect(findObject(bucket, "a.txt").key).toBe("a.txt");
    deleteObject(bucket, "a.txt");
    expect([refusal(() => deleteObject(bucket, "a.txt")), refusal(() => findObject(bucket, "a.txt"))]).toEqual([
      ["not_found", "not_found"],
      ["not_found", "not_found"],
    ]);
  });

  it("deletes by prefix only the keys that start with it, and counts them", () => {
    expect(deleteObjectsByPrefix(bucket, "img/")).toBe(2);
    expect([...bucket.objects.keys()].sort()).toEqual(["a.txt", "imgs.txt"]);
    expect(deleteObjectsByPrefix(bucket, "img/")).toBe(0);
  });
});

describe("presigned grants", () => {
  let w: UnitWorld;
  let bucket: BucketRec;
  const presign = (input: { operation: "upload" | "download"; contentType?: string; expiresInSeconds?: number }) =>
    presignObject(w.world, { projectId: w.project.id, branchId: w.main.id, bucket, key: "docs/report.pdf", ...input });
  beforeEach(() => {
    w = unitWorld();
    bucket = createBucket(w.world, w.main, { name: "media" });
  });

  it("grants an upload with its content type for 15 minutes by default, and a download with none", () => {
    const now = w.world.clock.now();
    const upload = presign({ operation: "upload", contentType: "application/pdf" });
    const download = presign({ operation: "download", contentType: "application/pdf", expiresInSeconds: 60 });
    expect([upload.method, upload.contentType, upload.expiresAt - now]).toEqual(["PUT", "application/pdf", 900_000]);
    expect([download.method, download.contentType, download.expiresAt - now]).toEqual(["GET", "", 60_000]);
  });

  it("redeems a token for its bucket and key, only for its method and content type", () => {
    const { token } = presign({ operation: "upload", contentType: "application/pdf" });
    const grant = redeemGrant(w.world, token, { method: "PUT", contentType: "application/pdf" });
    expect([grant.bucket, grant.key]).toEqual([bucket, "docs/report.pdf"]);
    expect([
      refusal(() => redeemGrant(w.world, token, { method: "GET" })),
      refusal(() => redeemGrant(w.world, token, { method: "PUT", contentType: "text/plain" })),
      refusal(() => redeemGrant(w.world, token, { method: "PUT", contentType: "" })),
    ]).toEqual([
      ["forbidden", "forbidden"],
      ["forbidden", "forbidden"],
      ["forbidden", "forbidden"],
    ]);
  });

  it("refuses an altered or expired token, and a token whose bucket is gone", () => {
    const { token } = presign({ operation: "download", expiresInSeconds: 60 });
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect(refusal(() => redeemGrant(w.world, altered, { method: "GET" }))).toEqual(["forbidden", "forbidden"]);
    deleteBucket(w.main, "media");
    expect(refusal(() => redeemGrant(w.world, token, { method: "GET" }))).toEqual(["not_found", "not_found"]);
    w.world.clock.advance(60_000);
    expect(refusal(() => redeemGrant(w.world, token, { method: "GET" }))).toEqual(["forbidden", "forbidden"]);
  });

  it("stores an upload's bytes under the granted key, replacing an earlier one", async () => {
    const grant = redeemGrant(w.world, presign({ operation: "upload" }).token, { method: "PUT", contentType: "" });
    await putObject(w.world, grant, { bytes: new Uint8Array([1, 2]), contentType: "" });
    const bytes = new Uint8Array([1, 2, 3]);
    const object = await putObject(w.world, grant, { bytes, contentType: "application/pdf" });
    expect(findObject(bucket, "docs/report.pdf")).toBe(object);
    expect([object.size, object.contentType, object.etag]).toEqual([3, "application/pdf", `"${createHash("md5").update(bytes).digest("hex")}"`]);
    expect(await w.world.blobs.get(object.blob ?? "")).toEqual(bytes);
  });
});
