import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseMarker } from "../../../src/diff/fingerprint-markers.js";

// The replica's fingerprinter must never reach the scrypt pool: any derivation fails this file.
vi.mock("../../../src/engine/scrypt-pool.js", () => ({
  startScrypt: () => {
    throw new Error("a replica fingerprint started a scrypt derivation");
  },
  queuedDerivations: () => 0,
}));

const { computeCodeTag, createReplicaFingerprinter } = await import("../../../src/engine/function-fingerprint.js");

const input = { slug: "hello", zipSha256: "ab".repeat(32), runtime: "nodejs24", env: { KEY: "v", OTHER: "w", GONE: "" } };

describe("the replica fingerprinter (tags for the functions a hardened plan deferred)", () => {
  it("writes hardened markers of the hardened shape, with the project's code tag and no per-variable tag", async () => {
    const fp = createReplicaFingerprinter("proj-1");
    const tag = await fp.tag(input);
    expect(fp.mode).toBe("hardened");
    expect(tag.codeTag).toBe(computeCodeTag("proj-1", "hello", input.zipSha256));
    expect(tag.envTag).toMatch(/^EH[0-9A-F]{18}$/);
    expect(tag.legacyConfigTag).toMatch(/^H[0-9A-F]{19}$/);
    expect(tag.varTags).toBeUndefined();
    expect(tag.markers).toEqual([`SVC_FINGERPRINT_${tag.codeTag}_${tag.envTag}`]);
    expect(parseMarker(tag.markers[0] ?? "")).toEqual({ kind: "main", codeTag: tag.codeTag, envTag: tag.envTag });
  });

  it("gives one function the same tag every time, and a new tag when a deployed value or name changes", async () => {
    const fp = createReplicaFingerprinter("proj-1");
    const tag = await fp.tag(input);
    expect((await fp.tag({ ...input, env: { OTHER: "w", KEY: "v", GONE: "" } })).envTag).toBe(tag.envTag);
    expect((await fp.tag({ ...input, env: { KEY: "v", OTHER: "w" } })).envTag).toBe(tag.envTag);
    expect((await fp.tag({ ...input, env: { ...input.env, KEY: "x" } })).envTag).not.toBe(tag.envTag);
    expect((await fp.tag({ ...input, env: { ...input.env, MORE: "m" } })).envTag).not.toBe(tag.envTag);
  });

  it("keys its tags by a key of its own: another fingerprinter's tags for the same env differ", async () => {
    const [a, b] = await Promise.all([createReplicaFingerprinter("proj-1").tag(input), createReplicaFingerprinter("proj-1").tag(input)]);
    expect(a.codeTag).toBe(b.codeTag);
    expect(a.envTag).not.toBe(b.envTag);
    expect(a.legacyConfigTag).not.toBe(b.legacyConfigTag);
  });

  it("prefetches and derives nothing", async () => {
    const fp = createReplicaFingerprinter("proj-1");
    fp.prefetch([input.env]);
    fp.dropUnused();
    await fp.tag(input);
    expect(fp.stats()).toEqual({ derivations: 0, ms: 0 });
  });

  it("is reachable only from the verifier: no other module (the public API included) names it", () => {
    const src = join(import.meta.dirname, "../../../src");
    const naming = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith(".ts") && readFileSync(join(src, file), "utf8").includes("createReplicaFingerprinter"))
      .map((file) => relative(src, join(src, file)).split("\\").join("/"))
      .sort();
    expect(naming).toEqual(["engine/function-fingerprint.ts", "engine/verify-plan.ts"]);
  });
});
