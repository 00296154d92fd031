/**
 * The blob stores keep bytes by their SHA-256. A digest the caller has just computed of the same
 * bytes spares a second hash; a disk store never takes a file name from anything but 64 hex digits.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DiskBlobStore, MemoryBlobStore } from "../../../src/emulator/persist/blob-store.js";

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("storing a blob in memory", () => {
  it("stores the same blob under the same digest whether or not the caller gives it", async () => {
    const bytes = new TextEncoder().encode("archive bytes");
    const given = new MemoryBlobStore();
    const computed = new MemoryBlobStore();
    expect(await given.put(bytes, sha256(bytes))).toBe(sha256(bytes));
    expect(await computed.put(bytes)).toBe(sha256(bytes));
    expect(await given.get(sha256(bytes))).toEqual(await computed.get(sha256(bytes)));
  });

  it("keeps its own copy of a view: the body the view was cut from may change or go", async () => {
    const body = new TextEncoder().encode("--b\r\narchive bytes\r\n--b--");
    const view = body.subarray(5, 18);
    const store = new MemoryBlobStore();
    const digest = await store.put(view, sha256(view));
    body.fill(0);
    const kept = await store.get(digest);
    expect(new TextDecoder().decode(kept)).toBe("archive bytes");
    expect(kept?.byteLength).toBe(13);
    expect(kept?.buffer.byteLength).toBe(13);
  });
});

describe("storing a blob on disk", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("names the file by the digest, and computes it itself when the given one is not 64 hex digits", async () => {
    dir = await mkdtemp(join(tmpdir(), "svc-blob-store-"));
    const store = new DiskBlobStore(dir);
    const bytes = new TextEncoder().encode("archive bytes");
    expect(await store.put(bytes, sha256(bytes))).toBe(sha256(bytes));
    for (const hostile of ["../escape", "", sha256(bytes).toUpperCase(), `${sha256(bytes)}/x`]) expect(await store.put(bytes, hostile)).toBe(sha256(bytes));
    expect(await readdir(join(dir, "blobs"))).toEqual([sha256(bytes)]);
    expect(await readdir(dir)).toEqual(["blobs"]);
  });
});
