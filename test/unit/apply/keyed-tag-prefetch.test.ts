import { describe, expect, it, vi } from "vitest";

/** How many HMACs were made: the prefetch takes the env tag and the per-variable tags off the tag itself. */
const hmacs = vi.hoisted(() => ({ made: 0 }));

vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  const createHmac = ((...args: Parameters<typeof real.createHmac>) => {
    hmacs.made += 1;
    return real.createHmac(...args);
  }) as typeof real.createHmac;
  return { ...real, createHmac, default: { ...real, createHmac } };
});

const { createFingerprinter, parseFingerprintKey, prefetchKeyedEnvTags } = await import("../../../src/engine/function-fingerprint.js");

const KEY = parseFingerprintKey("0123456789abcdef".repeat(4));
const OTHER_KEY = parseFingerprintKey("f".repeat(64));
const input = (slug: string, env: Record<string, string>) => ({ slug, zipSha256: "ab".repeat(32), runtime: "nodejs24", env });
const ENV = { TOKEN: "t-1", REGION: "eu", GONE: "" };

/** The tag of `slug` from a fresh fingerprinter, and the HMACs it made. */
async function tagOf(projectId: string, key: Buffer, slug: string, env: Record<string, string>) {
  const before = hmacs.made;
  const tag = await createFingerprinter(projectId, key).tag(input(slug, env));
  return { tag, made: hmacs.made - before };
}

describe("keyed env tags computed ahead", () => {
  it("give the very tags a plan computes itself, and spare the plan their HMACs, once", async () => {
    const plain = await tagOf("proj-1", KEY, "hello", ENV);
    prefetchKeyedEnvTags("proj-1", KEY, [{ slug: "hello", env: { REGION: "eu", GONE: "", TOKEN: "t-1" } }]);
    const ahead = await tagOf("proj-1", KEY, "hello", ENV);
    expect(ahead.tag).toEqual(plain.tag);
    // key id, code tag and older config tag remain; the env tag and the two variables' tags were done ahead.
    expect(plain.made - ahead.made).toBe(3);
    // Taken once: the next fingerprint computes them again.
    expect((await tagOf("proj-1", KEY, "hello", ENV)).made).toBe(plain.made);
  });

  it.each([
    ["another value", "proj-1", KEY, "hello", { ...ENV, TOKEN: "t-2" }],
    ["another slug", "proj-1", KEY, "other", ENV],
    ["another project", "proj-2", KEY, "hello", ENV],
    ["another key", "proj-1", OTHER_KEY, "hello", ENV],
  ] as const)("are not used for %s: the tag is computed from its own inputs", async (_label, projectId, key, slug, env) => {
    prefetchKeyedEnvTags("proj-1", KEY, [{ slug: "hello", env: ENV }]);
    const plain = await tagOf(projectId, key, slug, env);
    const fresh = createFingerprinter(projectId, key);
    expect(plain.tag).toEqual(await fresh.tag(input(slug, env)));
    expect(plain.made).toBe(1 + 1 + 1 + 1 + Object.values(env).filter((v) => v !== "").length);
    // What was prefetched stays for the input it was computed for: key id, code tag and older config tag only.
    expect((await tagOf("proj-1", KEY, "hello", ENV)).made).toBe(3);
  });

  it("skips an env holding a value that is not a string", async () => {
    prefetchKeyedEnvTags("proj-1", KEY, [{ slug: "odd", env: { A: 1 } }]);
    expect((await tagOf("proj-1", KEY, "odd", { A: "1" })).made).toBe(5);
  });
});
