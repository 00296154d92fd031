/** Buckets' and object listing's domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { RuleError } from "../../../src/emulator/engine/rule-error.js";
import { createBucket, deleteBucket, findBucket, listBuckets, listObjects, requireLiveProject, storageBranch } from "../../../src/emulator/engine/storage.js";
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

describe("storage scope", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });
  /** The refusal's `[kind, code, reason]`. */
  const refusedWith = (call: () => unknown): [string, string, string | undefined] | null => {
    try {
      call();
      return null;
    } catch (err) {
      if (err instanceof RuleError) return [err.kind, err.code, err.reason];
      throw err;
    }
  };

  it("refuses a deleted project as gone", () => {
    requireLiveProject(w.project);
    w.project.deletedAt = w.world.clock.now();
    expect(refusedWith(() => requireLiveProject(w.project))).toEqual(["gone", "project_deleted", undefined]);
  });

  it("finds the branch, and says why storage or the AI gateway is unavailable", () => {
    expect(storageBranch(w.world, w.project, w.main.id, "ai_gateway")).toBe(w.main);
    expect(refusedWith(() => storageBranch(w.world, w.project, "br-nope", "storage"))).toEqual(["not_found", "not_found", "branch_not_found"]);
    w.world.orgs.set("org-acme", { id: "org-acme", name: "Acme", plan: "scale", platformFeatures: false, members: new Map(), projectRoleManagement: true, memberDefaultProjectRole: null, createdAt: 0 });
    w.project.orgId = "org-acme";
    expect(refusedWith(() => storageBranch(w.world, w.project, w.main.id, "storage"))).toEqual(["not_found", "not_found", "org_not_entitled"]);
    expect(storageBranch(w.world, w.project, w.main.id, "ai_gateway")).toBe(w.main);
    w.project.regionId = "aws-us-west-2";
    expect([refusedWith(() => storageBranch(w.world, w.project, w.main.id, "ai_gateway")), refusedWith(() => storageBranch(w.world, w.project, w.main.id, "storage"))]).toEqual([
      ["not_found", "not_found", "ai_gateway_unavailable"],
      ["not_found", "not_found", "org_not_entitled"],
    ]);
    delete w.project.orgId;
    expect(refusedWith(() => storageBranch(w.world, w.project, w.main.id, "storage"))).toEqual(["not_found", "not_found", "region_unavailable"]);
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
