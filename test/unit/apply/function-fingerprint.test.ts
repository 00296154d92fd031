import { describe, expect, it } from "vitest";
import { computeCodeTag, configTagMatters, createFingerprinter, parseFingerprintKey } from "../../../src/engine/function-fingerprint.js";
import { isPlatformError } from "../../../src/errors/index.js";
import type { LiveFunction } from "../../../src/model/live-state.js";

const base = { slug: "hello", zipSha256: "ab".repeat(32), runtime: "nodejs24", env: { KEY: "v", GONE: "" } };
const KEY_HEX = "0123456789abcdef".repeat(4);

describe("function fingerprints", () => {
  it("derives a 20-hex code tag that depends on project, slug and archive but not the branch", () => {
    const tag = computeCodeTag("proj-1", "hello", base.zipSha256);
    expect(tag).toMatch(/^[0-9A-F]{20}$/);
    expect(computeCodeTag("proj-1", "hello", base.zipSha256)).toBe(tag);
    expect(computeCodeTag("proj-2", "hello", base.zipSha256)).not.toBe(tag);
    expect(computeCodeTag("proj-1", "other", base.zipSha256)).not.toBe(tag);
    expect(computeCodeTag("proj-1", "hello", "cd".repeat(32))).not.toBe(tag);
  });

  it.each([
    ["keyed", () => createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX)), /^K[0-9A-F]{19}$/],
    ["hardened", () => createFingerprinter("proj-1"), /^H[0-9A-F]{19}$/],
  ] as const)("in %s mode, a config tag changes with any env value, env name, runtime or bundle, not key order", async (_mode, make, shape) => {
    const fp = make();
    const tag = (await fp.tag(base)).configTag;
    expect(tag).toMatch(shape);
    expect((await fp.tag({ ...base, env: { GONE: "", KEY: "v" } })).configTag).toBe(tag);
    const variants = await Promise.all([
      fp.tag({ ...base, env: { KEY: "w", GONE: "" } }),
      fp.tag({ ...base, env: { KEY: "v" } }),
      fp.tag({ ...base, zipSha256: "cd".repeat(32) }),
      fp.tag({ ...base, runtime: "nodejs22" }),
    ]);
    for (const v of variants) expect(v.configTag).not.toBe(tag);
  });

  it("keys the config tag: another key gives another tag for the same function", async () => {
    const a = await createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX)).tag(base);
    const b = await createFingerprinter("proj-1", parseFingerprintKey("f".repeat(64))).tag(base);
    expect(a.codeTag).toBe(b.codeTag);
    expect(a.configTag).not.toBe(b.configTag);
  });

  it("hardens each distinct env value once: functions sharing values cost no further derivation", async () => {
    const fp = createFingerprinter("proj-shared");
    const env = { DATABASE_URL: "postgres://u:p@h/db", TOKEN: "t-1" };
    await Promise.all(["a", "b", "c", "d"].map((slug) => fp.tag({ ...base, slug, env })));
    expect(fp.stats().derivations).toBe(2);
    await fp.tag({ ...base, slug: "e", env: { ...env, TOKEN: "t-2" } });
    expect(fp.stats().derivations).toBe(3);
  });

  it("names the marker after both tags and never contains an env value", async () => {
    const tag = await createFingerprinter("proj-1").tag({ ...base, env: { SECRET: "hunter2" } });
    expect(tag.marker).toBe(`SVC_FINGERPRINT_${tag.codeTag}_${tag.configTag}`);
    expect(JSON.stringify(tag)).not.toContain("hunter2");
  });

  it("accepts a key of 32 bytes as hex, base64 or base64url and refuses a short one without echoing it", () => {
    const bytes = Buffer.from(KEY_HEX, "hex");
    expect(parseFingerprintKey(bytes.toString("base64"))).toEqual(bytes);
    expect(parseFingerprintKey(bytes.toString("base64url"))).toEqual(bytes);
    let caught: unknown;
    try {
      parseFingerprintKey("short-secret-key");
    } catch (err) {
      caught = err;
    }
    expect(isPlatformError(caught, "PLATFORM_INVALID_OPTIONS")).toBe(true);
    expect(JSON.stringify({ message: (caught as Error).message, details: (caught as { details: unknown }).details })).not.toContain("short-secret-key");
    expect((caught as Error).message).toContain("at least 32 random bytes");
  });

  it("needs a config tag only for a deployed, non-failed function whose marker has the same code tag", () => {
    const live = (markers: string[], status: "completed" | "failed" = "completed"): LiveFunction => ({
      slug: "hello", name: "hello", invocationUrl: "", envNames: [], markers, current: { id: 1, status, runtime: "nodejs24" },
    });
    expect(configTagMatters(undefined, "C0DE")).toBe(false);
    expect(configTagMatters(live(["SVC_FINGERPRINT_C0DE_H0123"]), "C0DE")).toBe(true);
    expect(configTagMatters(live(["SVC_FINGERPRINT_BEEF_H0123"]), "C0DE")).toBe(false);
    expect(configTagMatters(live(["SVC_FINGERPRINT_C0DE_H0123"], "failed"), "C0DE")).toBe(false);
    expect(configTagMatters(live([]), "C0DE")).toBe(false);
  });
});
