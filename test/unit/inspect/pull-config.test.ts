import { describe, expect, it } from "vitest";
import { resolvePolicy } from "../../../src/kinds/list.js";
import { KIND_READS, diffState, readNeedsForPolicy } from "../../../src/kinds/modules.js";
import { inspect, inspectWith, pullConfig } from "../../../src/engine/inspect.js";
import { branchTargetOf } from "../../../src/inspect/normalize.js";
import { readLiveState } from "../../../src/inspect/read-live-state.js";
import { fixturePlatform, loadRoutes } from "./fixture-platform.js";

const PROJECT = "calm-river-123456";
const BRANCH = "br-preview-654321";
const MAIN = "br-main-000001";
const routes = loadRoutes("full-branch");
const BRANCH_PATH = `/api/v2/projects/${PROJECT}/branches/${BRANCH}`;

const MAIN_PATH = `/api/v2/projects/${PROJECT}/branches/${MAIN}`;

/** The project's default branch: no endpoints, no storage, nothing deployed; `overrides` add its databases and Data APIs. */
function mainBranchPlatform(overrides: Parameters<typeof fixturePlatform>[1]) {
  const main = (routes[`GET /api/v2/projects/${PROJECT}/branches`] as { branches: Record<string, unknown>[] }).branches[1];
  return fixturePlatform(
    { ...routes, [`GET ${MAIN_PATH}`]: { branch: main } },
    {
      [`GET ${MAIN_PATH}/endpoints`]: { status: 200, body: { endpoints: [] } },
      [`GET ${MAIN_PATH}/buckets`]: { status: 404, body: { code: "not_found", message: "no storage", reason: "org_not_entitled" } },
      [`GET ${MAIN_PATH}/functions`]: { status: 200, body: { functions: [] } },
      [`GET ${MAIN_PATH}/credentials`]: { status: 200, body: { credentials: [] } },
      [`GET ${MAIN_PATH}/triggers`]: { status: 200, body: { triggers: [] } },
      [`GET ${MAIN_PATH}/custom-domains`]: { status: 200, body: { custom_domains: [] } },
      ...overrides,
    },
  );
}

describe("pullConfig", () => {
  it("returns the project, the branch, a policy and a secret-free preview", async () => {
    const { api } = fixturePlatform(routes);

    const pulled = await pullConfig({ projectId: PROJECT, branchId: BRANCH, api });

    expect(pulled.project).toEqual({ id: PROJECT, name: "shop", region: "aws-us-east-2", pgVersion: 17, orgId: "org-quiet-sun-12345" });
    expect(pulled.branch).toEqual({
      id: BRANCH,
      name: "preview/pr-42",
      parent: "main",
      isDefault: false,
      protected: true,
      expiresAt: "2026-03-08T12:00:00.500Z",
    });
    expect(pulled.config.auth).toBe(true);
    expect(pulled.config.dataApi).toEqual({ settings: { dbSchemas: ["api", "public"], dbMaxRows: 500, openapiMode: "disabled" } });
    expect(pulled.config.branch?.(branchTargetOf({ id: BRANCH, name: "x", createdAt: "", protected: true, isDefault: false }))).toEqual({
      parent: "main",
      protected: true,
      ttl: "1w",
      postgres: { computeSettings: { autoscalingLimitMinCu: 0.5, autoscalingLimitMaxCu: 2, suspendTimeout: "1h" } },
    });
    expect(pulled.config.functions).toBeUndefined();
    expect(pulled.config.buckets).toBeUndefined();
    expect(pulled.preview).toEqual({
      buckets: [
        { name: "assets", access: "public_read" },
        { name: "uploads", access: "private" },
      ],
      functions: [
        { slug: "api", name: "API" },
        { slug: "worker", name: "Worker" },
      ],
      credentials: [
        {
          tokenId: "nak_live_0123456789abcdef0123456789abcdef",
          name: "ci",
          scopes: ["storage:read", "telemetry:write"],
          createdAt: "2026-03-01T12:20:00Z",
          expiresAt: "2026-04-01T00:00:00Z",
        },
      ],
      // The branch's own triggers in policy form (cron whitespace collapsed, defaults left out;
      // the inherited one belongs to the parent's policy) and its hostnames, normalised.
      triggers: [
        { name: "nightly", type: "schedule", function: "api", functionPath: "/cron", cron: "0 3 * * *" },
        { name: "on-upload", type: "storage_object_created", function: "worker", bucket: "uploads", prefix: "incoming/" },
      ],
      customDomains: [{ domain: "api.shop.example.com", function: "api" }],
    });
    expect(JSON.stringify(pulled)).not.toMatch(/api_token|s3_secret|nt_live_|nsk_live_/);
  });

  it("is the same function as inspect", () => {
    expect(pullConfig).toBe(inspect);
  });

  it("reads in at most 3 sequential waves", async () => {
    const platform = fixturePlatform(routes);

    await inspectWith(platform.api, PROJECT, BRANCH);

    expect(platform.waves()).toBe(3);
    expect(platform.requests.filter((r) => r.wave === 3).map((r) => r.path)).toEqual([`${BRANCH_PATH}/data-api/neondb`]);
  });

  it("plans clean against the branch it was pulled from", async () => {
    const { api } = fixturePlatform(routes);
    const pulled = await pullConfig({ projectId: PROJECT, branchId: BRANCH, api });

    const live = await readLiveState({ api, projectId: PROJECT, branchId: BRANCH, needs: (target) => readNeedsForPolicy(resolvePolicy(pulled.config, target)), kinds: KIND_READS });
    const desired = resolvePolicy(pulled.config, branchTargetOf(live.state.branch));
    const plan = diffState(desired, live.state, { now: new Date("2026-03-02T00:00:00Z"), functionTags: new Map(), allowDataLoss: false });

    expect(plan.changes).toEqual([]);
    expect(plan.conflicts).toEqual([]);
  });

  it("pulls a default branch without parent, TTL or preview, and an external Data API when auth is off", async () => {
    const { api } = mainBranchPlatform({
      [`GET ${MAIN_PATH}/databases`]: { status: 200, body: { databases: [{ name: "app", owner_name: "o" }] } },
      [`GET ${MAIN_PATH}/data-api/app`]: { status: 200, body: { url: "u", status: "ready", settings: null } },
    });

    const pulled = await pullConfig({ projectId: PROJECT, branchId: MAIN, api });

    expect(pulled.branch).toEqual({ id: MAIN, name: "main", isDefault: true, protected: false });
    expect(pulled.config.auth).toBeUndefined();
    expect(pulled.config.dataApi).toEqual({ database: "app", authProvider: "external" });
    expect(pulled.config.branch?.({ name: "main", exists: true, isDefault: true })).toEqual({ protected: false });
    // A preview planned or created from the pulled file does not get the default branch's tuning.
    expect(pulled.config.branch?.({ name: "pr-1", exists: false, isDefault: false })).toEqual({});
    expect(pulled.preview).toBeUndefined();
  });

  it("reads the Data API on the database the branch's auth uses, and the pulled file plans clean", async () => {
    const { api } = fixturePlatform(routes, {
      [`GET ${BRANCH_PATH}/databases`]: { status: 200, body: { databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "app", owner_name: "neondb_owner" }] } },
      [`GET ${BRANCH_PATH}/auth`]: { status: 200, body: { auth_provider: "better_auth", branch_id: BRANCH, db_name: "app", created_at: "2026-03-01T12:05:00Z" } },
      [`GET ${BRANCH_PATH}/data-api/app`]: { status: 200, body: { url: "u", status: "ready", settings: { db_max_rows: 50 } } },
    });
    const pulled = await pullConfig({ projectId: PROJECT, branchId: BRANCH, api });
    expect(pulled.config.dataApi).toEqual({ database: "app", settings: { dbMaxRows: 50 } });

    const live = await readLiveState({ api, projectId: PROJECT, branchId: BRANCH, needs: (target) => readNeedsForPolicy(resolvePolicy(pulled.config, target)), kinds: KIND_READS });
    const plan = diffState(resolvePolicy(pulled.config, branchTargetOf(live.state.branch)), live.state, { now: new Date("2026-03-02T00:00:00Z"), functionTags: new Map(), allowDataLoss: false });
    expect([plan.changes, plan.conflicts]).toEqual([[], []]);
  });

  it("finds a Data API on another database when the branch has no auth, and the pulled file plans clean", async () => {
        const { api, requests } = mainBranchPlatform({
      [`GET ${MAIN_PATH}/databases`]: { status: 200, body: { databases: [{ name: "reports", owner_name: "neondb_owner" }, { name: "app", owner_name: "neondb_owner" }, { name: "neondb", owner_name: "neondb_owner" }] } },
      [`GET ${MAIN_PATH}/data-api/neondb`]: { status: 404, body: { code: "not_found", message: "no data api" } },
      [`GET ${MAIN_PATH}/data-api/app`]: { status: 200, body: { url: "u", status: "ready", settings: { db_max_rows: 50 } } },
      [`GET ${MAIN_PATH}/data-api/reports`]: { status: 404, body: { code: "not_found", message: "no data api" } },
    });
    const pulled = await pullConfig({ projectId: PROJECT, branchId: MAIN, api });
    expect(pulled.config.dataApi).toEqual({ database: "app", settings: { dbMaxRows: 50 }, authProvider: "external" });
    expect(requests.filter((r) => r.wave === 3).map((r) => r.path.slice(MAIN_PATH.length))).toEqual(["/data-api/neondb", "/data-api/app", "/data-api/reports"]);

    const live = await readLiveState({ api, projectId: PROJECT, branchId: MAIN, needs: (target) => readNeedsForPolicy(resolvePolicy(pulled.config, target)), kinds: KIND_READS });
    const plan = diffState(resolvePolicy(pulled.config, branchTargetOf(live.state.branch)), live.state, { now: new Date("2026-03-02T00:00:00Z"), functionTags: new Map(), allowDataLoss: false });
    expect([plan.changes, plan.conflicts]).toEqual([[], []]);
  });

  it("rejects a branch name, listing the available branches as name (id)", async () => {
    const { api } = fixturePlatform(routes);

    const err = await pullConfig({ projectId: PROJECT, branchId: "preview/pr-42", api }).catch((e: unknown) => e);

    expect(err).toMatchObject({ code: "PLATFORM_BRANCH_NOT_FOUND" });
    expect((err as Error).message).toContain(`main (${MAIN}), preview/pr-42 (${BRANCH})`);
  });

  it("needs an API key or an adapter", async () => {
    await expect(pullConfig({ projectId: PROJECT, branchId: BRANCH })).rejects.toMatchObject({ code: "PLATFORM_MISSING_API_KEY" });
  });
});
