import { describe, expect, it } from "vitest";
import { computeCodeTag, computeConfigTag, computeFunctionTag } from "../../../src/engine/function-fingerprint.js";

const base = { projectId: "proj-1", slug: "hello", zipSha256: "ab".repeat(32), runtime: "nodejs24", env: { KEY: "v", GONE: "" } };

describe("function fingerprints", () => {
  it("derives a 20-hex code tag that depends on project, slug and archive but not the branch", () => {
    const tag = computeCodeTag("proj-1", "hello", base.zipSha256);
    expect(tag).toMatch(/^[0-9A-F]{20}$/);
    expect(computeCodeTag("proj-1", "hello", base.zipSha256)).toBe(tag);
    expect(computeCodeTag("proj-2", "hello", base.zipSha256)).not.toBe(tag);
    expect(computeCodeTag("proj-1", "other", base.zipSha256)).not.toBe(tag);
    expect(computeCodeTag("proj-1", "hello", "cd".repeat(32))).not.toBe(tag);
  });

  it("derives a 20-hex config tag that changes with any env value, runtime or bundle, not key order", async () => {
    const tag = await computeConfigTag(base);
    expect(tag).toMatch(/^[0-9A-F]{20}$/);
    expect(await computeConfigTag({ ...base, env: { GONE: "", KEY: "v" } })).toBe(tag);
    const variants = await Promise.all([
      computeConfigTag({ ...base, env: { KEY: "w", GONE: "" } }),
      computeConfigTag({ ...base, env: { KEY: "v" } }),
      computeConfigTag({ ...base, zipSha256: "cd".repeat(32) }),
      computeConfigTag({ ...base, runtime: "nodejs22" }),
    ]);
    for (const v of variants) expect(v).not.toBe(tag);
  });

  it("names the marker after both tags and never contains an env value", async () => {
    const tag = await computeFunctionTag({ ...base, env: { SECRET: "hunter2" } });
    expect(tag.marker).toBe(`SVC_FINGERPRINT_${tag.codeTag}_${tag.configTag}`);
    expect(JSON.stringify(tag)).not.toContain("hunter2");
  });
});
