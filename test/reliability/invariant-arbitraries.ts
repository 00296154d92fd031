/**
 * Random inputs for the safety-invariant property test: policies (as an author writes them),
 * live branches (as the platform may hold them, with names JavaScript objects treat specially,
 * look-alikes, auth and Data APIs on any database, buckets with objects)
 * and the flags of an apply. Names come from small pools, so policies and branches overlap.
 */
import fc from "fast-check";
import type { PolicyConfig } from "../../src/v1.js";
import type { BranchSeed } from "../helpers/seed-branch.js";

/** Bucket names a policy may declare (valid there). */
const POLICY_BUCKETS = ["media", "logs", "constructor", "toString", "caf\u00e9"] as const;
/**
 * Bucket names a branch may hold: the policy's, their look-alikes, and names a policy cannot
 * write. (Control characters are absent: the platform refuses them in every name, and the
 * hostile suite checks that views print outside names escaped.)
 */
const LIVE_BUCKETS = ["media", "medi\u0430", "logs", "1ogs", "constructor", "hasOwnProperty", "cafe\u0301", "__proto__"] as const;
const POLICY_ROLES = ["app", "constructor", "reader"] as const;
const LIVE_ROLES = ["app", "\u0430pp", "constructor", "valueOf", "reader", "victim"] as const;
const POLICY_DATABASES = ["neondb", "app", "hasOwnProperty", "stats"] as const;
const LIVE_DATABASES = ["app", "\u0430pp", "hasOwnProperty", "__proto__", "stats", "scratch"] as const;
const FUNCTIONS = ["api", "mail", "constructor"] as const;
const LIVE_FUNCTIONS = ["api", "rnail", "constructor", "jobs"] as const;

/** The flags of one apply. */
export interface ApplyFlags {
  allowDataLoss: boolean;
}

/** A policy as plain data, and the function slugs it declares (all built from one source). */
export interface RandomPolicy {
  config: PolicyConfig;
}

/** A random valid policy: roles, databases, buckets, functions, triggers, auth, Data API and prune flags. */
export const policyArb: fc.Arbitrary<RandomPolicy> = fc
  .record({
    buckets: fc.subarray([...POLICY_BUCKETS]),
    roles: fc.subarray([...POLICY_ROLES]),
    databases: fc.subarray([...POLICY_DATABASES]),
    functions: fc.subarray([...FUNCTIONS]),
    auth: fc.constantFrom<"on" | "off" | "unset">("on", "off", "unset"),
    dataApi: fc.constantFrom<"unset" | "off" | "neondb" | "app">("unset", "off", "neondb", "app"),
    prune: fc.record({ functions: fc.boolean(), triggers: fc.boolean(), customDomains: fc.boolean(), buckets: fc.boolean(), roles: fc.boolean(), databases: fc.boolean() }),
    triggerOnBucket: fc.boolean(),
    ownerPick: fc.nat(),
  })
  .map((r) => {
    const owner = (i: number): string => (r.roles.length === 0 ? "neondb_owner" : (r.roles[(r.ownerPick + i) % r.roles.length] ?? "neondb_owner"));
    const functions = Object.fromEntries(r.functions.map((slug) => [slug, { name: `Fn ${slug}`, source: "./fn", bundler: "none" as const }]));
    const firstFn = r.functions[0];
    const firstBucket = r.buckets[0];
    const triggers: NonNullable<PolicyConfig["triggers"]> =
      firstFn === undefined
        ? {}
        : r.triggerOnBucket && firstBucket !== undefined
          ? { onupload: { type: "storage_object_created" as const, function: firstFn, bucket: firstBucket } }
          : { nightly: { type: "schedule" as const, function: firstFn, cron: "0 3 * * *" } };
    const dataApiDatabase = r.dataApi === "app" && !r.databases.includes("app") ? "neondb" : r.dataApi;
    const config: PolicyConfig = {
      buckets: Object.fromEntries(r.buckets.map((name) => [name, {}])),
      roles: Object.fromEntries(r.roles.map((name) => [name, {}])),
      databases: Object.fromEntries(r.databases.map((name, i) => [name, { owner: owner(i) }])),
      functions,
      triggers,
      prune: r.prune,
      ...(r.auth === "unset" ? {} : { auth: r.auth === "on" }),
      ...(dataApiDatabase === "unset" ? {} : dataApiDatabase === "off" ? { dataApi: false } : { dataApi: { database: dataApiDatabase, authProvider: "external" as const, jwksUrl: "https://id.example.com/jwks.json" } }),
    };
    return { config };
  });

/** A random live default branch as an emulator seed (over `main`: an endpoint, `neondb` owned by `neondb_owner`). */
export const liveBranchArb: fc.Arbitrary<Partial<BranchSeed>> = fc
  .record({
    roles: fc.subarray([...LIVE_ROLES]),
    databases: fc.subarray([...LIVE_DATABASES]),
    buckets: fc.subarray([...LIVE_BUCKETS]),
    withObjects: fc.array(fc.boolean(), { minLength: LIVE_BUCKETS.length, maxLength: LIVE_BUCKETS.length }),
    functions: fc.subarray([...LIVE_FUNCTIONS]),
    auth: fc.option(fc.constantFrom("neondb", "app", "hasOwnProperty", "__proto__", "scratch"), { nil: undefined }),
    dataApis: fc.subarray(["neondb", "app", "stats", "scratch", "__proto__"]),
    ownerPick: fc.nat(),
    triggerPick: fc.nat(),
  })
  .map((r) => {
    const roles = ["neondb_owner", ...r.roles];
    const databases = ["neondb", ...r.databases];
    const owner = (i: number): string => roles[(r.ownerPick + i) % roles.length] ?? "neondb_owner";
    const liveFunction = r.functions[r.triggerPick % Math.max(1, r.functions.length)];
    const liveBucket = r.buckets.find((b) => b !== "__proto__");
    return {
      roles: roles.map((name) => ({ name })),
      databases: databases.map((name, i) => ({ name, owner_name: owner(i) })),
      buckets: r.buckets.map((name) => ({ name })),
      objects: r.buckets.filter((_, i) => r.withObjects[i] === true).map((bucket) => ({ bucket, key: "data.bin" })),
      functions: r.functions.map((slug) => ({ slug, name: slug, runtime: "nodejs24", environment: { MODE: "x" } })),
      triggers:
        liveFunction === undefined
          ? []
          : liveBucket !== undefined && r.triggerPick % 2 === 0
            ? [{ name: "live-upload", type: "storage_object_created" as const, function_slug: liveFunction, bucket_name: liveBucket }]
            : [{ name: "live-nightly", type: "schedule" as const, function_slug: liveFunction, cron: "0 4 * * *" }],
      ...(r.auth !== undefined && databases.includes(r.auth) ? { auth: { auth_provider: "better_auth", database_name: r.auth } } : {}),
      data_api: r.dataApis.filter((db) => databases.includes(db)).map((database) => ({ database })),
    };
  });

/** Random apply flags. */
export const flagsArb: fc.Arbitrary<ApplyFlags> = fc.record({ allowDataLoss: fc.boolean() });
