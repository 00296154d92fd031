import { describe, expect, it } from "vitest";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { NOW, policyWith } from "../../helpers/engine-state.js";
import { type AnyKindRead, readBaseState, readFeatureState, readGuardState, readLiveState } from "../../../src/inspect/read-live-state.js";
import { stateFingerprint } from "../../../src/diff/state-fingerprint.js";
import type { LiveSlices } from "../../../src/kinds/index.js";
import { readNeedsOf } from "../../../src/inspect/read-needs.js";
import { allFeatureReads, NO_FEATURE_READS } from "../../helpers/read-needs.js";
import { KIND_MODULES, KIND_READS, diffState, readNeedsForPolicy } from "../../../src/kinds/modules.js";
import { fixturePlatform, loadRoutes } from "./fixture-platform.js";
import { WIDGET, widgetModule } from "../kinds/widget-kind.js";

const PROJECT = "calm-river-123456";
const BRANCH = "br-preview-654321";
const routes = loadRoutes("full-branch");
const OPTIONS = { now: NOW, functionTags: new Map(), allowDataLoss: false };
const PRUNE_EVERYTHING = { functions: true, triggers: true, customDomains: true, buckets: true, roles: true, databases: true };

describe("reading live state", () => {
  it("normalises a branch with every resource kind", async () => {
    const { api } = fixturePlatform(routes);

    const { state, unavailable } = await readLiveState({ api, projectId: PROJECT, branchId: BRANCH, needs: allFeatureReads(), kinds: KIND_READS });

    expect(unavailable).toEqual([]);
    expect(state.project).toEqual({
      id: PROJECT,
      name: "shop",
      regionId: "aws-us-east-2",
      pgVersion: 17,
      orgId: "org-quiet-sun-12345",
      defaultCompute: { minCu: 0.25, maxCu: 0.25, suspendTimeoutSeconds: 0 },
    });
    expect(state.branch).toEqual({
      id: BRANCH,
      name: "preview/pr-42",
      parentId: "br-main-000001",
      createdAt: "2026-03-01T12:00:00.500Z",
      expiresAt: "2026-03-08T12:00:00.500Z",
      protected: true,
      isDefault: false,
    });
    expect(state.compute).toEqual({ endpointId: "ep-rw-111111", minCu: 0.5, maxCu: 2, suspendTimeoutSeconds: 3600 });
    expect(state.databases).toEqual(["analytics", "neondb"]);
    expect(state.roles).toEqual([{ name: "neondb_owner", login: true, protected: false }]);
    expect(state.databaseOwners).toEqual(new Map([["analytics", "neondb_owner"], ["neondb", "neondb_owner"]]));
    expect([state.parentRoles, state.parentDatabases]).toEqual([["neondb_owner"], ["neondb"]]);
    expect(state.auth).toEqual({ enabled: true, databaseName: "neondb" });
    expect(state.dataApi?.enabled).toBe(true);
    expect(state.dataApi?.settings).toMatchObject({ dbSchemas: ["api", "public"], dbMaxRows: 500 });
    expect(state.buckets).toEqual([
      { name: "assets", access: "public_read" },
      { name: "uploads", access: "private" },
    ]);
    expect(state.functions?.map((f) => f.slug)).toEqual(["api", "worker"]);
    expect(state.functions?.[0]).toMatchObject({
      envNames: ["API_URL", "DATABASE_URL"],
      markers: ["SVC_FINGERPRINT_0123456789ABCDEF0123_00112233445566778899"],
      current: { id: 2, status: "completed", runtime: "nodejs24" },
    });
    expect(state.functions?.[1]?.current).toEqual({ id: 4, status: "failed", runtime: "nodejs24", error: "index.mjs not found" });
    expect(state.triggers?.map((t) => [t.name, t.inherited, t.cron ?? t.bucket, t.prefix])).toEqual([
      ["all-assets", true, "assets", undefined],
      ["nightly", false, "0 3 * * *", undefined],
      ["on-upload", false, "uploads", "incoming/"],
    ]);
    expect(state.customDomains).toEqual([
      { domain: "api.shop.example.com", entityType: "function", entityId: "api", cnameTarget: "edge.example.test", status: "active" },
    ]);
    expect(state.parentFunctionSlugs).toEqual(["api"]);
  });

  it("reads a branch with every resource kind in at most 3 sequential waves", async () => {
    const platform = fixturePlatform(routes);

    const base = await readBaseState({ api: platform.api, projectId: PROJECT, branchId: BRANCH });
    const { state } = await readFeatureState({ api: platform.api, projectId: PROJECT, base, needs: allFeatureReads(), kinds: KIND_READS });
    const pruning = policyWith({ prune: PRUNE_EVERYTHING, pruneStated: PRUNE_EVERYTHING });
    const first = diffState(pruning, state, OPTIONS);
    const guarded = await readGuardState({ api: platform.api, projectId: PROJECT, base, changes: first.changes, kinds: KIND_READS });
    const deletedBuckets = first.changes.flatMap(({ op }) => (op.type === "bucket-delete" ? [op.name] : []));

    expect(deletedBuckets.length).toBeGreaterThan(0);
    expect(guarded).toEqual({ bucketHasObjects: new Map(deletedBuckets.map((b) => [b, true])) });
    expect(platform.requests.filter((r) => r.wave === 3).map((r) => r.path)).toEqual(deletedBuckets.map((b) => `/api/v2/projects/${PROJECT}/branches/${BRANCH}/buckets/${b}/objects`));

    expect(platform.waves()).toBeLessThanOrEqual(3);
    expect(platform.requests.filter((r) => r.wave === 1).map((r) => r.path)).toEqual([
      `/api/v2/projects/${PROJECT}`,
      `/api/v2/projects/${PROJECT}/branches/${BRANCH}`,
      `/api/v2/projects/${PROJECT}/branches/${BRANCH}/endpoints`,
    ]);
    expect(platform.requests.filter((r) => r.wave === 2)).toHaveLength(11);
  });

  it("reads only the base state when the policy manages no feature", async () => {
    const platform = fixturePlatform(routes);

    const { state } = await readLiveState({ api: platform.api, projectId: PROJECT, branchId: BRANCH, needs: NO_FEATURE_READS, kinds: KIND_READS });

    expect(platform.requests).toHaveLength(3);
    expect(state.functions).toBeUndefined();
    expect(state.buckets).toBeUndefined();
  });

  it("derives the reads from the branch target when given a function", async () => {
    const platform = fixturePlatform(routes);
    let seenName = "";

    await readLiveState({
      api: platform.api,
      projectId: PROJECT,
      branchId: BRANCH,
      needs: (target) => {
        seenName = target.name;
        return { buckets: true };
      },
      kinds: KIND_READS,
    });

    expect(seenName).toBe("preview/pr-42");
    expect(platform.requests.map((r) => r.path).at(-1)).toBe(`/api/v2/projects/${PROJECT}/branches/${BRANCH}/buckets`);
  });

  it("reads a feature the platform does not offer as none and says so", async () => {
    const platform = fixturePlatform(routes, {
      [`GET /api/v2/projects/${PROJECT}/branches/${BRANCH}/functions`]: {
        status: 404,
        body: { code: "feature_unavailable", message: "Functions are not available in this region" },
      },
    });

    const { state, unavailable } = await readLiveState({
      api: platform.api,
      projectId: PROJECT,
      branchId: BRANCH,
      needs: { functions: true },
      kinds: KIND_READS,
    });

    expect(state.functions).toEqual([]);
    expect(unavailable).toEqual([{ field: "functions", message: expect.stringContaining("not available") }]);
  });

  it("rejects a branch name passed as an id, listing the branches with their ids", async () => {
    const { api } = fixturePlatform(routes);

    const err = await readLiveState({ api, projectId: PROJECT, branchId: "main", needs: NO_FEATURE_READS, kinds: KIND_READS }).catch((e: unknown) => e);

    expect(err).toMatchObject({
      code: "PLATFORM_BRANCH_NOT_FOUND",
      details: { branchId: "main", available: [{ name: "main", id: "br-main-000001" }, { name: "preview/pr-42", id: BRANCH }] },
    });
    expect(String((err as Error).message)).toContain("main (br-main-000001), preview/pr-42 (br-preview-654321)");
    expect(String((err as Error).message)).toContain("its id is br-main-000001");
  });

  it("tells which buckets a plan would delete hold objects, and makes no wave 3 when it deletes none", async () => {
    const platform = fixturePlatform(routes);
    const base = await readBaseState({ api: platform.api, projectId: PROJECT, branchId: BRANCH });
    const { state } = await readFeatureState({ api: platform.api, projectId: PROJECT, base, needs: allFeatureReads(), kinds: KIND_READS });
    const deleting = diffState(policyWith({ prune: PRUNE_EVERYTHING, pruneStated: PRUNE_EVERYTHING }), { ...state, buckets: [{ name: "assets" }, { name: "uploads" }], triggers: [] }, OPTIONS);
    const none = diffState(policyWith(), state, OPTIONS);

    const guarded = await readGuardState({ api: platform.api, projectId: PROJECT, base, changes: deleting.changes, kinds: KIND_READS });
    const requests = platform.requests.length;
    const nothing = await readGuardState({ api: platform.api, projectId: PROJECT, base, changes: none.changes, kinds: KIND_READS });

    expect(guarded?.bucketHasObjects).toEqual(new Map([["assets", false], ["uploads", true]]));
    expect(nothing).toBeNull();
    expect(platform.requests).toHaveLength(requests);
  });
});

describe("reads a policy needs", () => {
  const NOT_STATED = { functions: false, triggers: false, customDomains: false, buckets: false, roles: false, databases: false };
  const base = policyWith({ target: { name: "main", exists: true }, baseDir: null });
  const fn = {
    slug: "api",
    name: "API",
    sourcePath: "/src/api",
    env: {},
    runtime: "nodejs24" as const,
    bundler: "esbuild" as const,
    sourcemap: false,
    customDomains: [] as string[],
  };

  it.each<{ name: string; policy: Partial<ResolvedPolicy>; expected: ReturnType<typeof readNeedsForPolicy> }>([
    { name: "an empty policy reads nothing", policy: {}, expected: {} },
    { name: "auth on reads auth and databases", policy: { auth: "enabled" }, expected: { auth: true, databases: true } },
    { name: "auth authored off reads auth only", policy: { authDeclaredOff: true }, expected: { auth: true } },
    { name: "a disabled Data API reads it on neondb", policy: { dataApi: { state: "disabled" } }, expected: { databases: true, dataApi: "neondb" } },
    {
      name: "a built-in Data API reads auth and its database",
      policy: { dataApi: { state: "enabled", database: "app", authProvider: "builtin", settings: {} } },
      expected: { auth: true, databases: true, dataApi: "app" },
    },
    { name: "functions read functions only", policy: { functions: [fn] }, expected: { functions: true } },
    {
      name: "a function with domains reads domains",
      policy: { functions: [{ ...fn, customDomains: ["api.example.com"] }] },
      expected: { functions: true, customDomains: true },
    },
    {
      name: "a storage trigger reads buckets and triggers",
      policy: { triggers: [{ name: "t", type: "storage_object_created", function: "api", bucket: "b", functionPath: "/", enabled: true }] },
      expected: { buckets: true, triggers: true },
    },
    {
      name: "pruning functions reads functions, triggers, domains and the parent's functions",
      policy: { prune: { functions: true, triggers: false, customDomains: false, buckets: false, roles: false, databases: false } },
      expected: { functions: true, triggers: true, customDomains: true, parentFunctions: true },
    },
    {
      name: "pruning buckets reads buckets and triggers",
      policy: { prune: { functions: false, triggers: false, customDomains: false, buckets: true, roles: false, databases: false } },
      expected: { buckets: true, triggers: true },
    },
    {
      name: "a prune flag stated false reads its kind alone, to list undeclared items",
      policy: { pruneStated: { ...NOT_STATED, functions: true, buckets: true } },
      expected: { functions: true, parentFunctions: true, buckets: true },
    },
    {
      name: "stated triggers, hostnames, roles and databases read theirs",
      policy: { pruneStated: { functions: false, triggers: true, customDomains: true, buckets: false, roles: true, databases: true } },
      expected: { triggers: true, customDomains: true, roles: true, parentRolesDatabases: true, databases: true },
    },
  ])("$name", ({ policy, expected }) => {
    expect(readNeedsForPolicy({ ...base, ...policy })).toEqual(expected);
  });
});

describe("a kind's read", () => {
  // The widget kind (no source file knows it) needs the custom domains when the policy declares a bucket.
  const reads: AnyKindRead[] = [{ ...widgetModule.read, kind: WIDGET }, ...KIND_READS];
  const withBucket = policyWith({ buckets: [{ name: "avatars", access: "private" }] });
  const domainsPath = `/api/v2/projects/${PROJECT}/branches/${BRANCH}/custom-domains`;

  const widgetSlice = (state: LiveState): unknown => (state.kinds as Record<string, unknown> | undefined)?.widget;

  async function planReads(policy: ResolvedPolicy, kinds: readonly AnyKindRead[]) {
    const platform = fixturePlatform(routes);
    const base = await readBaseState({ api: platform.api, projectId: PROJECT, branchId: BRANCH });
    const { state } = await readFeatureState({ api: platform.api, projectId: PROJECT, base, needs: readNeedsOf(kinds, policy), kinds });
    return { state, paths: platform.requests.map((r) => r.path) };
  }

  it("makes its request only when its condition holds, and builds its slice of live.kinds from it", async () => {
    const declared = await planReads(withBucket, reads);
    const without = await planReads(withBucket, KIND_READS);
    const notDeclared = await planReads(policyWith(), reads);

    expect(declared.paths).toContain(domainsPath);
    expect(widgetSlice(declared.state)).toEqual(["API.Shop.example.com."]);
    expect(without.paths).not.toContain(domainsPath);
    expect(notDeclared.paths).toEqual(without.paths.filter((p) => !p.endsWith("/buckets")));
    expect(notDeclared.state.kinds).not.toHaveProperty("widget");
    // The buckets the bucket kind needs are read either way; the widget adds one request, no more.
    expect(declared.paths.length).toBe(without.paths.length + 1);
  });

  it("shares a source another kind needs: read once, each kind building its part from it", async () => {
    const withDomains = policyWith({ ...withBucket, prune: { ...withBucket.prune, customDomains: true } });

    const { state, paths } = await planReads(withDomains, reads);

    expect(paths.filter((p) => p === domainsPath)).toHaveLength(1);
    expect(widgetSlice(state)).toEqual(["API.Shop.example.com."]);
    expect(state.customDomains?.map((d) => d.domain)).toEqual(["api.shop.example.com"]);
  });

  it("reads each source once however many kinds need it", async () => {
    const policy = policyWith({ auth: "enabled", roles: [{ name: "app", login: true }], dataApi: { state: "disabled" } });

    const { paths } = await planReads(policy, KIND_READS);

    expect(paths.filter((p) => p.endsWith("/databases"))).toHaveLength(1);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("changes the state fingerprint with its slice", async () => {
    const { state } = await planReads(withBucket, reads);

    expect(stateFingerprint(state, KIND_MODULES)).not.toBe(stateFingerprint({ ...state, kinds: { widget: [] } as LiveSlices }, KIND_MODULES));
  });
});
