import { describe, expect, it } from "vitest";
import { createHash, createHmac, scryptSync } from "node:crypto";
import { availableParallelism } from "node:os";
import { computeCodeTag, createFingerprinter, envTagMatters, parseFingerprintKey, prefetchValueKeys } from "../../../src/engine/function-fingerprint.js";
import { queuedDerivations } from "../../../src/engine/scrypt-pool.js";
import { isPlatformError } from "../../../src/errors/index.js";
import type { LiveFunction } from "../../../src/kinds/function/fields.js";

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
    ["keyed", () => createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX)), /^EK[0-9A-F]{18}$/],
    ["hardened", () => createFingerprinter("proj-1"), /^EH[0-9A-F]{18}$/],
  ] as const)("in %s mode, the env tag changes with any deployed env value or name, not with the archive, the runtime, key order or a deletion", async (_mode, make, shape) => {
    const fp = make();
    const tag = (await fp.tag(base)).envTag;
    expect(tag).toMatch(shape);
    const same = await Promise.all([
      fp.tag({ ...base, env: { GONE: "", KEY: "v" } }),
      fp.tag({ ...base, env: { KEY: "v" } }),
      fp.tag({ ...base, zipSha256: "cd".repeat(32) }),
      fp.tag({ ...base, runtime: "nodejs22" }),
    ]);
    for (const v of same) expect(v.envTag).toBe(tag);
    const other = await Promise.all([fp.tag({ ...base, env: { KEY: "w", GONE: "" } }), fp.tag({ ...base, env: { KEY: "v", MORE: "m" } })]);
    for (const v of other) expect(v.envTag).not.toBe(tag);
  });

  it("keyed: one short tag per deployed variable, changing only with that variable's value, packed after the main marker", async () => {
    const fp = createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX));
    const a = await fp.tag({ ...base, env: { A: "1", B: "2", GONE: "" } });
    const b = await fp.tag({ ...base, env: { A: "1", B: "3", GONE: "" } });
    expect(Object.keys(a.varTags ?? {})).toEqual(["A", "B"]);
    expect(a.varTags?.A).toMatch(/^[0-9A-F]{8}$/);
    expect(b.varTags?.A).toBe(a.varTags?.A);
    expect(b.varTags?.B).not.toBe(a.varTags?.B);
    expect(a.markers).toEqual([`SVC_FINGERPRINT_${a.codeTag}_${a.envTag}`, `SVC_FINGERPRINT_V${[a.varTags?.A, a.varTags?.B].sort().join("")}`]);
  });

  it("keyed: packs the tags of many variables into names the platform accepts", async () => {
    const env = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`VAR_${i}`, String(i)]));
    const tag = await createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX)).tag({ ...base, env });
    expect(tag.markers).toHaveLength(1 + Math.ceil(100 / 29));
    for (const name of tag.markers) expect(name.length).toBeLessThanOrEqual(255);
    expect(tag.markers.slice(1).join("").replaceAll("SVC_FINGERPRINT_V", "")).toHaveLength(800);
  });

  it("hardened: writes no per-variable tag (each would let a guess be tested against one value alone)", async () => {
    const tag = await createFingerprinter("proj-1").tag({ ...base, env: { A: "1", B: "2" } });
    expect(tag.varTags).toBeUndefined();
    expect(tag.markers).toEqual([`SVC_FINGERPRINT_${tag.codeTag}_${tag.envTag}`]);
  });

  it("keyed: still computes the config tag older versions wrote, so their markers compare equal", async () => {
    const key = parseFingerprintKey(KEY_HEX);
    const tag = await createFingerprinter("proj-1", key).tag(base);
    // What svc-config wrote before the env tag: HMAC(key, "svc-fp/2"‖project‖slug‖zip‖{runtime, env}), first 19 hex.
    const message = ["svc-fp/2", "proj-1", "hello", base.zipSha256, JSON.stringify({ env: { GONE: "", KEY: "v" }, runtime: "nodejs24" })].join("\u0000");
    expect(tag.legacyConfigTag).toBe(`K${createHmac("sha256", key).update(message).digest("hex").slice(0, 19).toUpperCase()}`);
  });

  it("keyed: the key id, env tag and per-variable tags are the documented HMACs under the key's bytes", async () => {
    const key = parseFingerprintKey(KEY_HEX);
    const mac = (parts: string[], length: number): string => createHmac("sha256", key).update(parts.join("\u0000")).digest("hex").slice(0, length).toUpperCase();
    const fp = createFingerprinter("proj-1", key);
    const odd = "quote \" and \u00e9, \u{1F600}\n";
    const env = { b: "3", B: "2", A: "1", GONE: "", _Q: odd, "\u00c9": "x" };
    const tag = await fp.tag({ ...base, env });
    const keyId = mac(["svc-fp/3", "key-id"], 4);
    // Names in UTF-16 order, "" (a deletion) left out.
    const deployed = `{"A":"1","B":"2","_Q":${JSON.stringify(odd)},"b":"3","\u00c9":"x"}`;
    expect(tag.envTag).toBe(`EK${keyId}${mac(["svc-fp/3", "proj-1", "hello", "env", deployed], 14)}`);
    const varTag = (name: string, value: string): string => mac(["svc-fp/3", "proj-1", "hello", "var", name, value], 8);
    expect(tag.varTags).toEqual({ A: varTag("A", "1"), B: varTag("B", "2"), _Q: varTag("_Q", odd), b: varTag("b", "3"), "\u00c9": varTag("\u00c9", "x") });
    const config = `{"env":{"A":"1","B":"2","GONE":"","_Q":${JSON.stringify(odd)},"b":"3","\u00c9":"x"},"runtime":"nodejs24"}`;
    expect(tag.legacyConfigTag).toBe(`K${createHmac("sha256", key).update(["svc-fp/2", "proj-1", "hello", base.zipSha256, config].join("\u0000")).digest("hex").slice(0, 19).toUpperCase()}`);
    // The same key given again to a new fingerprinter gives the same tags (the key is read when the fingerprinter is made).
    expect(await createFingerprinter("proj-1", Buffer.from(key)).tag({ ...base, env })).toEqual(tag);
  });

  it("keys the env tags: another key gives other tags and names itself in the env tag", async () => {
    const a = await createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX)).tag(base);
    const b = await createFingerprinter("proj-1", parseFingerprintKey("f".repeat(64))).tag(base);
    expect(a.codeTag).toBe(b.codeTag);
    expect(a.envTag).not.toBe(b.envTag);
    expect(a.envTag.slice(0, 6)).not.toBe(b.envTag.slice(0, 6));
    expect(a.varTags?.KEY).not.toBe(b.varTags?.KEY);
  });

  it("hardens each distinct env value once: functions sharing values cost no further derivation", async () => {
    const fp = createFingerprinter("proj-shared");
    const env = { DATABASE_URL: "postgres://u:p@h/db", TOKEN: "t-1" };
    await Promise.all(["a", "b", "c", "d"].map((slug) => fp.tag({ ...base, slug, env })));
    expect(fp.stats().derivations).toBe(2);
    await fp.tag({ ...base, slug: "e", env: { ...env, TOKEN: "t-2" } });
    expect(fp.stats().derivations).toBe(3);
  });

  it("names the markers after the tags and never contains an env value", async () => {
    for (const fp of [createFingerprinter("proj-1"), createFingerprinter("proj-1", parseFingerprintKey(KEY_HEX))]) {
      const tag = await fp.tag({ ...base, env: { SECRET: "hunter2" } });
      expect(tag.markers[0]).toBe(`SVC_FINGERPRINT_${tag.codeTag}_${tag.envTag}`);
      expect(JSON.stringify(tag)).not.toContain("hunter2");
    }
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

  it("derives the env tag when something live compares with it: an env tag apart from the code, or an older marker of the same code", () => {
    const live = (markers: string[], status: "completed" | "failed" = "completed"): LiveFunction => ({
      slug: "hello", name: "hello", invocationUrl: "", envNames: [], markers, current: { id: 1, status, runtime: "nodejs24" },
    });
    expect(envTagMatters(undefined, "C0DE")).toBe(false);
    expect(envTagMatters(live(["SVC_FINGERPRINT_C0DE_EH0123"]), "C0DE")).toBe(true);
    expect(envTagMatters(live(["SVC_FINGERPRINT_BEEF_EH0123"]), "C0DE")).toBe(true);
    expect(envTagMatters(live(["SVC_FINGERPRINT_C0DE_H0123"]), "C0DE")).toBe(true);
    expect(envTagMatters(live(["SVC_FINGERPRINT_BEEF_H0123"]), "C0DE")).toBe(false);
    expect(envTagMatters(live(["SVC_FINGERPRINT_C0DE_EH0123"], "failed"), "C0DE")).toBe(false);
    expect(envTagMatters(live([]), "C0DE")).toBe(false);
  });
});

/** The hardened tags as the engine spec defines them, computed here with Node's scrypt for `projectId`. */
function documentedHardenedTags(projectId: string, input: typeof base): { envTag: string; legacyConfigTag: string } {
  const k = (name: string): Buffer => scryptSync(input.env[name as keyof typeof input.env] ?? "", ["svc-fp/2", projectId, name].join("\u0000"), 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const macKey = (names: string[]): Buffer => {
    const digest = createHash("sha256");
    for (const name of names) digest.update(k(name));
    return digest.digest();
  };
  const hex = (key: Buffer, parts: string[], length: number): string => createHmac("sha256", key).update(parts.join("\u0000")).digest("hex").slice(0, length).toUpperCase();
  return {
    envTag: `EH${hex(macKey(["KEY"]), ["svc-fp/3", input.slug, "env", "KEY"], 18)}`,
    legacyConfigTag: `H${hex(macKey(["GONE", "KEY"]), ["svc-fp/2", input.slug, input.zipSha256, input.runtime, "GONE", "KEY"], 19)}`,
  };
}

describe("hardened derivations started before the decision (prefetch)", () => {
  it("give the tags of the documented derivation, as derivations started by the tag itself do", async () => {
    const onDemand = await createFingerprinter("proj-formula-a").tag(base);
    expect({ envTag: onDemand.envTag, legacyConfigTag: onDemand.legacyConfigTag }).toEqual(documentedHardenedTags("proj-formula-a", base));
    prefetchValueKeys("proj-formula-b", [base.env]);
    const prefetched = await createFingerprinter("proj-formula-b").tag(base);
    expect({ envTag: prefetched.envTag, legacyConfigTag: prefetched.legacyConfigTag }).toEqual(documentedHardenedTags("proj-formula-b", base));
  });

  it("give the documented tags when no value is empty, so the env tag and the older config tag are keyed by the same names", async () => {
    const full = { ...base, env: { REGION: "eu", API_TOKEN: "tok" } };
    const k = (name: "REGION" | "API_TOKEN"): Buffer => scryptSync(full.env[name], ["svc-fp/2", "proj-full", name].join("\u0000"), 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const macKey = createHash("sha256").update(k("API_TOKEN")).update(k("REGION")).digest();
    const hex = (parts: string[], length: number): string => createHmac("sha256", macKey).update(parts.join("\u0000")).digest("hex").slice(0, length).toUpperCase();
    prefetchValueKeys("proj-full", [full.env]);
    const fp = createFingerprinter("proj-full");
    const tag = await fp.tag(full);
    expect({ envTag: tag.envTag, legacyConfigTag: tag.legacyConfigTag }).toEqual({
      envTag: `EH${hex(["svc-fp/3", full.slug, "env", "API_TOKEN", "REGION"], 18)}`,
      legacyConfigTag: `H${hex(["svc-fp/2", full.slug, full.zipSha256, full.runtime, "API_TOKEN", "REGION"], 19)}`,
    });
    expect(fp.stats().derivations).toBe(2); // the prefetched keys, each used once
  });

  it("count as derivations of the first operation whose tags use them, not of later ones", async () => {
    prefetchValueKeys("proj-claim", [base.env, { KEY: "v" }]);
    const first = createFingerprinter("proj-claim");
    await first.tag(base);
    expect(first.stats().derivations).toBe(2); // KEY = "v" and GONE = ""
    const second = createFingerprinter("proj-claim");
    await second.tag(base);
    expect(second.stats().derivations).toBe(0);
  });

  it("are cancelled by dropUnused when no tag used them and no worker started them, and derived again when a later tag needs them", async () => {
    const workers = Math.max(1, availableParallelism());
    const values = Array.from({ length: workers + 3 }, (_, i) => ({ KEY: `value-${i}` }));
    const fp = createFingerprinter("proj-drop");
    fp.prefetch(values);
    await new Promise((resolve) => setTimeout(resolve, 20)); // unheld derivations take the free slots at the next turn
    expect(queuedDerivations()).toBe(values.length - workers);
    const used = fp.tag({ ...base, env: { KEY: "value-0" } });
    fp.dropUnused();
    expect(queuedDerivations()).toBe(0);
    expect((await used).envTag).toMatch(/^EH[0-9A-F]{18}$/);
    const later = createFingerprinter("proj-drop");
    const last = values.at(-1) ?? { KEY: "" };
    expect((await later.tag({ ...base, env: last })).envTag).toMatch(/^EH[0-9A-F]{18}$/);
    expect(later.stats().derivations).toBe(1);
  });

  it("are none in keyed mode", () => {
    const values = Array.from({ length: Math.max(1, availableParallelism()) + 1 }, (_, i) => ({ KEY: `keyed-${i}` }));
    createFingerprinter("proj-keyed-prefetch", parseFingerprintKey(KEY_HEX)).prefetch(values);
    expect(queuedDerivations()).toBe(0);
  });
});
