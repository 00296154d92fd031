/**
 * The policy is read once into a plain snapshot: getters run once, names are entries (never
 * `Object.prototype` members), and values that are not data are refused with their path.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { defineConfig, resolvePolicy, validatePolicy, type PolicyConfig } from "../../../src/v1.js";
import { issuesOf } from "./validation-helpers.js";

const MAIN = { name: "main", exists: true, isDefault: true } as const;

describe("the policy snapshot", () => {
  it("calls each getter once: validation and resolution see the same value", () => {
    let reads = 0;
    const policy = {
      get buckets() {
        reads += 1;
        return reads === 1 ? { media: {} } : { other: {} };
      },
    };
    const resolved = resolvePolicy(validatePolicy(policy), MAIN, { baseDir: "/repo" });
    expect(reads).toBe(1);
    expect(resolved.buckets.map((b) => b.name)).toEqual(["media"]);
  });

  it("validates trigger references against the same functions it resolves, even through a getter", () => {
    let reads = 0;
    const policy = {
      get functions() {
        reads += 1;
        return reads === 1 ? { api: { name: "Api", source: "./fn" } } : {};
      },
      triggers: { nightly: { type: "schedule", function: "api", cron: "0 3 * * *" } },
    };
    const resolved = resolvePolicy(validatePolicy(policy), MAIN, { baseDir: "/repo" });
    expect(resolved.functions.map((f) => f.slug)).toEqual(["api"]);
    expect(reads).toBe(1);
  });

  it("reads the branch closure's result once", () => {
    let reads = 0;
    const policy = defineConfig({
      branch: () => ({
        get protected() {
          reads += 1;
          return reads === 1;
        },
      }),
    });
    expect(resolvePolicy(policy, MAIN).branch.protected).toBe(true);
    expect(reads).toBe(1);
  });

  it.each([
    ["a Promise", Promise.resolve({ buckets: { media: {} } }), "is a Promise, not a policy object"],
    ["a Map", new Map([["buckets", {}]]), "is a Map, not a policy object"],
    ["a class instance", new (class Policy {})(), "is an instance of Policy, not a policy object"],
  ])("refuses %s as the whole policy instead of reading it as an empty one", (_label, value, message) => {
    expect(issuesOf(() => validatePolicy(value))).toEqual([{ path: "", message: expect.stringContaining(message) }]);
  });

  it.each([
    ["a Map of buckets", { buckets: new Map([["media", {}]]) }, "buckets", "is a Map, not plain data"],
    ["a Set of domains", { functions: { api: { name: "Api", source: "./fn", customDomains: new Set(["a.example.com"]) } } }, "functions.api.customDomains", "is a Set"],
    ["a Promise as an env value", { functions: { api: { name: "Api", source: "./fn", env: { KEY: Promise.resolve("x") } } } }, "functions.api.env.KEY", "is a Promise"],
    ["a Date", { buckets: { media: { access: new Date(0) } } }, "buckets.media.access", "is a Date"],
  ])("refuses %s with its path", (_label, value, path, message) => {
    expect(issuesOf(() => validatePolicy(value))).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("refuses a value that refers to itself", () => {
    const buckets: Record<string, unknown> = {};
    buckets.loop = buckets;
    expect(issuesOf(() => validatePolicy({ buckets }))).toContainEqual({ path: "buckets.loop", message: expect.stringContaining("refers to itself") });
  });

  it("reads a Proxy once per key and names the key whose trap throws", () => {
    const seen: PropertyKey[] = [];
    const buckets = new Proxy({ media: {}, logs: {} } as Record<string, unknown>, {
      get(target, key) {
        seen.push(key);
        if (key === "logs") throw new Error("trap");
        return target[key as string];
      },
    });
    expect(issuesOf(() => validatePolicy({ buckets }))).toEqual([{ path: "buckets.logs", message: "could not be read: trap" }]);
    expect(seen).toEqual(["media", "logs"]);
  });

  it("accepts plain objects made in another realm (vm), and null-prototype objects", () => {
    expect(defineConfig(runInNewContext('({ buckets: { media: {} } })') as PolicyConfig).buckets).toEqual({ media: {} });
    expect(defineConfig(Object.assign(Object.create(null) as PolicyConfig, { buckets: { media: {} } })).buckets).toEqual({ media: {} });
  });

  it("names a Proxy that cannot even list its keys, and a closure result whose traps throw", () => {
    expect(issuesOf(() => validatePolicy(new Proxy({}, { ownKeys: () => ["a", "a"] })))).toEqual([{ path: "", message: expect.stringContaining("could not be read: 'ownKeys' on proxy") }]);
    const hostile = new Proxy({}, { get: () => { throw new Error("trap"); }, ownKeys: () => ["protected"], getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true, value: 1 }) });
    expect(issuesOf(() => resolvePolicy(defineConfig({ branch: () => hostile }), MAIN))).toEqual([{ path: "branch.protected", message: "could not be read: trap" }]);
  });

  it("ignores symbol keys and non-enumerable properties", () => {
    const policy = Object.defineProperty({ [Symbol("meta")]: 1, buckets: { media: {} } }, "hidden", { value: 1, enumerable: false });
    expect(Object.keys(defineConfig(policy as PolicyConfig))).toEqual(["buckets"]);
  });

  it("holds names as entries: a name of an Object.prototype member is an ordinary key", () => {
    const config = defineConfig({ buckets: { constructor: {}, toString: {} }, functions: { api: { name: "Api", source: "./fn", env: { toString: "x", valueOf: "" } } } });
    const resolved = resolvePolicy(config, MAIN, { baseDir: "/repo" });
    expect(Object.getPrototypeOf(config.buckets)).toBe(null);
    expect("hasOwnProperty" in (resolved.functions[0]?.env ?? {})).toBe(false);
    expect(Object.keys(resolved.functions[0]?.env ?? {})).toEqual(["toString", "valueOf"]);
  });

  it("resolves tuning for a function slug named like an Object.prototype member from the tuning, not the prototype", () => {
    const config = defineConfig({ functions: { constructor: { name: "C", source: "./fn" } }, branch: () => ({}) });
    expect(resolvePolicy(config, MAIN, { baseDir: "/repo" }).functions[0]).toMatchObject({ slug: "constructor", runtime: "nodejs24", customDomains: [] });
  });
});
