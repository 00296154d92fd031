/** Buckets' and object listing's domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { createBucket, deleteBucket, findBucket, listBuckets, listObjects } from "../../../src/emulator/engine/storage.js";
import type { BucketRec } from "../../../src/emulator/store/records.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("buckets", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  it("creates private buckets by default, lists them by name, and refuses a taken name", () => {
    createBucket(w.world, w.main, { name: "media" });
    createBucket(w.world, w.main, { name: "assets", access_level: "public_read" });
    expect(listBuckets(w.main).map((b) => [b.name, b.accessLevel])).toEqual([
      ["assets", "public_read"],
      ["media", "private"],
    ]);
    expect(refusal(() => createBucket(w.world, w.main, { name: "media" }))).toEqual(["conflict", "already_exists"]);
  });

  it("deletes a bucket once", () => {
    createBucket(w.world, w.main, { name: "media" });
    deleteBucket(w.main, "media");
    expect([refusal(() => deleteBucket(w.main, "media")), refusal(() => findBucket(w.main, "media"))]).toEqual([
      ["not_found", "not_found"],
      ["not_found", "not_found"],
    ]);
  });
});

describe("object listing", () => {
  let bucket: BucketRec;
  beforeEach(() => {
    const w = unitWorld();
    bucket = createBucket(w.world, w.main, { name: "media" });
    for (const key of ["b.txt", "a.txt", "img/1.png", "img/2.png", "img/raw/3.png", "z.txt"]) bucket.objects.set(key, { key, size: 1, etag: `"${key}"`, lastModified: 0 });
  });

  it.each<[string, Parameters<typeof listObjects>[1], { folders: string[]; keys: string[]; nextCursor?: string }]>([
    ["every key in order", {}, { folders: [], keys: ["a.txt", "b.txt", "img/1.png", "img/2.png", "img/raw/3.png", "z.txt"] }],
    ["folders under a delimiter", { delimiter: "/" }, { folders: ["img/"], keys: ["a.txt", "b.txt", "z.txt"] }],
    ["a prefix with a delimiter", { prefix: "img/", delimiter: "/" }, { folders: ["img/raw/"], keys: ["img/1.png", "img/2.png"] }],
    ["a full page, with the last key as the cursor", { limit: 2 }, { folders: [], keys: ["a.txt", "b.txt"], nextCursor: "b.txt" }],
    ["the page after a cursor", { cursor: "img/2.png" }, { folders: [], keys: ["img/raw/3.png", "z.txt"] }],
  ])("lists %s", (_name, query, expected) => {
    const page = listObjects(bucket, query);
    expect({ folders: page.folders, keys: page.objects.map((o) => o.key), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) }).toEqual(expected);
    expect(page.truncated).toBe(expected.nextCursor !== undefined);
  });
});
