import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import type { ExecutionContext } from "../../../src/apply/execution-context.js";
import { applyChange } from "../../../src/apply/handlers/index.js";
import { makeChange } from "../../../src/diff/change-builder.js";
import type { OpOf, OpType, PlannedOf } from "../../../src/model/planned-change.js";
import type { Json } from "../../../src/model/json.js";
import type { Change } from "../../../src/model/plan.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import { isPlatformError } from "../../../src/errors/index.js";
import { type FakePlatform, createFakePlatform, fakeBuildWatcher } from "../../helpers/fake-platform-api.js";
import { fnWith, policyWith } from "../../helpers/engine-state.js";
import { MAX_ENVIRONMENT_BYTES, environmentBytes, environmentEntryBytes } from "../../../src/rules/environment.js";
import { KIND_HANDLERS } from "../../../src/kinds/modules.js";

function context(fake: FakePlatform, desired: ResolvedPolicy, timing = { deploymentMs: 60_000, pollInitialMs: 1, pollMaxMs: 2 }): ExecutionContext {
  return {
    api: fake.api, projectId: "proj-1", branchId: "br-main-1", branchName: "main", desired, withArchive: (slug, send) => (slug === "hello" ? send(new Uint8Array([1])) : Promise.reject(new Error(`function ${slug} has no archive`))),
    request: pLimit(4), emit: () => undefined, timing, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), now: Date.now, functionMarkers: async (slug) => [`SVC_FINGERPRINT_C0DE_${slug.toUpperCase()}`], handlers: KIND_HANDLERS,
    builds: fakeBuildWatcher(fake, timing),
  };
}
/** An override update of a service or control-plane kind, as the diff plans it: `after` shows `values`, which the handler sends. */
const update = <T extends OpType>(kind: "branch" | "compute" | "dataApi", fields: string[], before: Json, after: Json, op: OpOf<T>, values: PlannedOf<T>) =>
  makeChange({ address: kind, kind, action: "update", class: "override", fields, before, after, reason: "", op, planned: values });
/** A change carrying `op` and planning `values` (its `after` shows `after`). */
const planned = <T extends OpType>(op: OpOf<T>, values: PlannedOf<T>, after: { [key: string]: Json } = {}) =>
  makeChange({ address: "x", kind: "bucket", action: "update", class: "additive", fields: ["*"], before: null, after, reason: "", op, planned: values });

describe("change handlers", () => {
  it("waits for the operations of a branch update and reports their ids and the expiry", async () => {
    const fake = createFakePlatform();
    const change = update("branch", ["protected", "expiresAt"], { protected: false, expiresAt: null }, { protected: true, expiresAt: "2026-02-01T00:00:00Z" }, {
      type: "branch-update",
    }, { protected: true, expiresAt: "2026-02-01T00:00:00Z" });
    const details = await applyChange(context(fake, policyWith()), change);
    expect(fake.bodies).toEqual([{ method: "updateBranch", body: { protected: true, expires_at: "2026-02-01T00:00:00Z" } }]);
    expect(fake.waited).toEqual(["op-1"]);
    expect(details).toEqual({ operationIds: ["op-1"], expiresAt: "2026-02-01T00:00:00Z" });
  });

  it("patches the compute with the planned values of the changed settings only, in wire names", async () => {
    const fake = createFakePlatform();
    const change = update(
      "compute",
      ["autoscalingLimitMaxCu", "suspendTimeout"],
      { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2, suspendTimeout: 300 },
      { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 4, suspendTimeout: -1 },
      { type: "compute-update", endpointId: "ep-1" },
      { maxCu: 4, suspendTimeoutSeconds: -1 },
    );
    await applyChange(context(fake, policyWith()), change);
    expect(fake.bodies[0]).toMatchObject({ method: "updateEndpoint", body: { endpointId: "ep-1", endpoint: { autoscaling_limit_max_cu: 4, suspend_timeout_seconds: -1 } } });
  });

  it("creates an external Data API with its wiring and declared settings in wire names", async () => {
    const fake = createFakePlatform();
    const desired = policyWith({ dataApi: { state: "enabled", database: "app", authProvider: "external", jwksUrl: "https://idp.test/jwks", jwtAudience: "api", settings: { dbMaxRows: 10 } } });
    const change = makeChange({ address: "dataApi", kind: "dataApi", action: "create", class: "additive", fields: ["*"], before: null, after: { enabled: true, settings: { dbMaxRows: 10 } }, reason: "", op: { type: "data-api-create", database: "app" }, planned: { dbMaxRows: 10 } });
    await applyChange(context(fake, desired), change);
    expect(fake.bodies[0]?.body).toMatchObject({ databaseName: "app", auth_provider: "external", jwks_url: "https://idp.test/jwks", jwt_audience: "api", settings: { db_max_rows: 10 } });
  });

  it("patches the Data API with the planned values of the changed settings only, in wire names", async () => {
    const fake = createFakePlatform();
    const change = update(
      "dataApi",
      ["settings.dbMaxRows", "settings.openapiMode"],
      { enabled: true, settings: { dbMaxRows: 10, dbSchemas: ["public"], openapiMode: "ignore-privileges" } },
      { enabled: true, settings: { dbMaxRows: 20, dbSchemas: ["public"], openapiMode: "disabled" } },
      { type: "data-api-update", database: "app" },
      { dbMaxRows: 20, openapiMode: "disabled" },
    );
    await applyChange(context(fake, policyWith()), change);
    expect(fake.bodies).toEqual([{ method: "updateDataApi", body: { databaseName: "app", settings: { db_max_rows: 20, openapi_mode: "disabled" } } }]);
  });

  it("creates roles and databases from their planned fields in wire names: no_login only for a role that cannot log in", async () => {
    const fake = createFakePlatform();
    const create = { action: "create", class: "additive", fields: ["*"], before: null, reason: "" } satisfies Partial<Change>;
    const role = (name: string, login: boolean) => makeChange({ ...create, address: `role.${name}`, kind: "role", after: { login }, op: { type: "role-create", name }, planned: { login } });
    await applyChange(context(fake, policyWith()), role("reader", false));
    await applyChange(context(fake, policyWith()), role("app_owner", true));
    const database = makeChange({ ...create, address: "database.appdb", kind: "database", after: { owner: "app_owner" }, op: { type: "database-create", name: "appdb" }, planned: { owner: "app_owner" } });
    await applyChange(context(fake, policyWith()), database);
    expect(fake.bodies).toEqual([
      { method: "createRole", body: { name: "reader", no_login: true } },
      { method: "createRole", body: { name: "app_owner" } },
      { method: "createDatabase", body: { name: "appdb", owner_name: "app_owner" } },
    ]);
  });

  it("gives a database the planned owner of its update, in wire names", async () => {
    const fake = createFakePlatform();
    const change = makeChange({
      address: "database.appdb", kind: "database", action: "update", class: "override", fields: ["owner"], reason: "",
      before: { owner: "intruder" }, after: { owner: "app_owner" }, op: { type: "database-update", name: "appdb" }, planned: { owner: "app_owner" },
    });
    await applyChange(context(fake, policyWith()), change);
    expect(fake.bodies).toEqual([{ method: "updateDatabase", body: { database: "appdb", owner_name: "app_owner" } }]);
  });

  it("patches an inherited trigger with its type, the changed fields and enabled, as planned", async () => {
    const fake = createFakePlatform();
    fake.triggers.push({ trigger_id: "t1", type: "schedule", function_slug: "hello", name: "tick", function_path: "/", enabled: false, inherited: true, schedule: { cron: "0 * * * *" } });
    const change = makeChange({
      address: "trigger.tick", kind: "trigger", action: "update", class: "additive", fields: ["enabled", "cron"], reason: "",
      before: { type: "schedule", function: "hello", functionPath: "/", enabled: false, cron: "0 * * * *" },
      after: { type: "schedule", function: "hello", functionPath: "/", enabled: true, cron: "*/5 * * * *" },
      op: { type: "trigger-update", name: "tick", id: "t1", fields: ["enabled", "cron"] },
      planned: { name: "tick", type: "schedule", function: "hello", functionPath: "/", enabled: true, cron: "*/5 * * * *" },
    });
    // The declared policy is not read: the request carries the change's planned values.
    await applyChange(context(fake, policyWith()), change);
    expect(fake.bodies).toEqual([{ method: "updateTrigger", body: { type: "schedule", enabled: true, schedule: { cron: "*/5 * * * *" } } }]);
  });

  it("creates a storage trigger from its planned fields in wire names, leaving an absent prefix out", async () => {
    const fake = createFakePlatform();
    const change = makeChange({
      address: "trigger.uploads", kind: "trigger", action: "create", class: "additive", fields: ["*"], before: null, reason: "",
      after: { type: "storage_object_created", function: "hello", functionPath: "/on-upload", enabled: true, bucket: "avatars", prefix: null },
      op: { type: "trigger-create", name: "uploads" },
      planned: { name: "uploads", type: "storage_object_created", function: "hello", functionPath: "/on-upload", enabled: true, bucket: "avatars" },
    });
    await applyChange(context(fake, policyWith()), change);
    expect(fake.bodies).toEqual([
      {
        method: "createTrigger",
        body: { type: "storage_object_created", name: "uploads", function_slug: "hello", function_path: "/on-upload", enabled: true, storage_object_created: { bucket_name: "avatars" } },
      },
    ]);
  });

  it("creates a bucket with its planned access level in wire names", async () => {
    const fake = createFakePlatform();
    await applyChange(context(fake, policyWith()), planned({ type: "bucket-create", name: "avatars" }, { access: "public_read" }, { access: "public_read" }));
    expect(fake.bodies).toEqual([{ method: "createBucket", body: { name: "avatars", access_level: "public_read" } }]);
  });

  it("moves a hostname: deletes, then registers for the new function", async () => {
    const fake = createFakePlatform();
    fake.domains.push({ domain: "a.example.com", entity_type: "function", entity_id: "blue", cname_target: "edge.test" });
    const details = await applyChange(context(fake, policyWith()), planned({ type: "domain-replace", domain: "a.example.com", previousSlug: "blue" }, { entityId: "green" }, { function: "green" }));
    expect(fake.calls.filter((c) => !c.startsWith("list"))).toEqual(["deleteCustomDomain a.example.com", "createCustomDomain a.example.com"]);
    expect(fake.domains).toEqual([expect.objectContaining({ entity_id: "green" })]);
    expect(details).toEqual({ cnameTarget: "edge.test", previousSlug: "blue" });
  });

  it.each([
    { name: "owner changed to another function", registered: [{ domain: "a.example.com", entity_type: "function", entity_id: "red", cname_target: "edge.test" }], says: "owner changed to function red" },
    { name: "hostname was removed from the branch", registered: [], says: "is no longer registered on this branch" },
  ])("refuses to move a hostname whose $name since the plan, touching nothing", async ({ registered, says }) => {
    const fake = createFakePlatform();
    fake.domains.push(...registered);
    const err = await applyChange(context(fake, policyWith()), planned({ type: "domain-replace", domain: "a.example.com", previousSlug: "blue" }, { entityId: "green" })).catch((e: unknown) => e);
    expect((err as Error).message).toContain(says);
    expect((err as Error).message).toContain("nothing deleted");
    expect(fake.calls).toEqual(["listCustomDomains br-main-1"]);
  });

  it("fails a deployment superseded by a newer one", async () => {
    const fake = createFakePlatform({ buildPolls: 100 });
    const ctx = context(fake, policyWith({ functions: [fnWith("hello")] }));
    const deploy = planned({ type: "function-deploy", slug: "hello", deploy: true, withZip: true, rename: false, markers: ["SVC_FINGERPRINT_A_B"], staleMarkers: [], envTag: "B", zipSha256: "z" }, { name: "hello", runtime: "nodejs24" });
    const running = applyChange(ctx, deploy).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    await fake.api.createDeployment({ projectId: "proj-1", branchId: "br-main-1", slug: "hello", runtime: "nodejs24" });
    expect(((await running) as Error).message).toContain("superseded by deployment 2");
  });

  it("times out a build that never finishes with PLATFORM_TIMEOUT", async () => {
    const fake = createFakePlatform({ buildPolls: 1_000 });
    const ctx = context(fake, policyWith({ functions: [fnWith("hello")] }), { deploymentMs: 30, pollInitialMs: 5, pollMaxMs: 5 });
    const deploy = planned({ type: "function-deploy", slug: "hello", deploy: true, withZip: true, rename: false, markers: ["SVC_FINGERPRINT_A_B"], staleMarkers: [], envTag: "B", zipSha256: "z" }, { name: "hello", runtime: "nodejs24" });
    const err = await applyChange(ctx, deploy).catch((e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_TIMEOUT")).toBe(true);
  });

  it("deploys env-only without the archive and deletes stale markers in the same deployment", async () => {
    const fake = createFakePlatform();
    await fake.api.createDeployment({ projectId: "proj-1", branchId: "br-main-1", slug: "hello", zip: new Uint8Array([1]), environment: { SVC_FINGERPRINT_A_OLD: "1" } });
    const calls: unknown[] = [];
    const api = { ...fake.api, createDeployment: (p: Parameters<typeof fake.api.createDeployment>[0]) => (calls.push({ zip: p.zip !== undefined, env: Object.keys(p.environment ?? {}) }), fake.api.createDeployment(p)) };
    const ctx = { ...context(fake, policyWith({ functions: [fnWith("hello", { env: { KEY: "v" } })] })), api: new Proxy(api, {}) };
    const deploy = planned({ type: "function-deploy", slug: "hello", deploy: true, withZip: false, rename: false, markers: ["SVC_FINGERPRINT_A_NEW", "SVC_FINGERPRINT_V00000001"], staleMarkers: ["SVC_FINGERPRINT_A_OLD"], envTag: "NEW", zipSha256: "z" }, { name: "hello", runtime: "nodejs24" });
    await applyChange(ctx, deploy);
    expect(calls).toEqual([{ zip: false, env: ["KEY", "SVC_FINGERPRINT_A_OLD", "SVC_FINGERPRINT_A_NEW", "SVC_FINGERPRINT_V00000001"] }]);
    expect([...(fake.functions.get("hello")?.env ?? [])].sort()).toEqual(["KEY", "SVC_FINGERPRINT_A_NEW", "SVC_FINGERPRINT_V00000001"]);
  });

  it("leaves out the per-variable markers when deleting older ones would pass the platform's environment limit", async () => {
    const fake = createFakePlatform();
    const calls: string[][] = [];
    const api = { ...fake.api, createDeployment: (p: Parameters<typeof fake.api.createDeployment>[0]) => (calls.push(Object.keys(p.environment ?? {})), fake.api.createDeployment(p)) };
    const stale = Array.from({ length: 40 }, (_, i) => `SVC_FINGERPRINT_V${String(i).padStart(8, "0").repeat(29)}`);
    // The declared value fills the environment up to a few bytes below the limit once the older markers are deleted.
    const without = (value: string) => environmentBytes({ KEY: value, ...Object.fromEntries(stale.map((m) => [m, ""])), SVC_FINGERPRINT_A_NEW: "1" });
    const value = "v".repeat(MAX_ENVIRONMENT_BYTES - without("") - 10);
    expect(without(value) + environmentEntryBytes("SVC_FINGERPRINT_V00000001", "1")).toBeGreaterThan(MAX_ENVIRONMENT_BYTES);
    const ctx = { ...context(fake, policyWith({ functions: [fnWith("hello", { env: { KEY: value } })] })), api: new Proxy(api, {}) };
    const deploy = planned({ type: "function-deploy", slug: "hello", deploy: true, withZip: false, rename: false, markers: ["SVC_FINGERPRINT_A_NEW", "SVC_FINGERPRINT_V00000001"], staleMarkers: stale, envTag: "NEW", zipSha256: "z" }, { name: "hello", runtime: "nodejs24" });
    await applyChange(ctx, deploy);
    expect(calls[0]).toContain("SVC_FINGERPRINT_A_NEW");
    expect(calls[0]).not.toContain("SVC_FINGERPRINT_V00000001");
    expect(calls[0]).toHaveLength(42);
  });
});

describe("the dispatch of a change to its kind's handler", () => {
  it("runs the handler the context's table holds for the change's operation, with the change and its operation", async () => {
    const fake = createFakePlatform();
    const seen: string[] = [];
    const handlers = { "bucket-create": async (_ctx: ExecutionContext, change: { address: string }, op: { name: string }) => (seen.push(`${change.address} ${op.name}`), {}) };
    await applyChange({ ...context(fake, policyWith()), handlers }, planned({ type: "bucket-create", name: "uploads" }, { access: "private" }, { access: "private" }));
    expect(seen).toEqual(["x uploads"]);
    expect(fake.calls).toEqual([]);
  });

  it("refuses an operation no kind handles, naming the change and the operation, and sends nothing", async () => {
    const fake = createFakePlatform();
    const err = await applyChange({ ...context(fake, policyWith()), handlers: {} }, planned({ type: "bucket-create", name: "uploads" }, { access: "private" })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPlatformError(err)).toBe(true);
    expect(err).toMatchObject({ message: "x: no kind handles the operation bucket-create; nothing was changed" });
    expect(fake.calls).toEqual([]);
  });
});
