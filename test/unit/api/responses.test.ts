import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PlatformApi } from "../../../src/api/platform-api.js";
import { JSON_HEADERS, PROJECT, platform, rejection, testClient } from "./helpers.js";

const PROJECT_PATH = `/projects/${PROJECT.id}`;
const REF = { projectId: PROJECT.id, branchId: "br-a-1" };
const BRANCH_PATH = `${PROJECT_PATH}/branches/br-a-1`;

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});

describe("request headers", () => {
  it("sends the bearer key, the user agent, a request id and JSON bodies", async () => {
    let seen: Record<string, unknown> = {};
    let body: unknown;
    platform()
      .patch(BRANCH_PATH)
      .reply(function (_uri, requestBody) {
        seen = { ...this.req.headers };
        body = requestBody;
        return [200, { branch: branch("br-a-1", "preview"), operations: [] }, JSON_HEADERS];
      });
    const { api } = testClient();

    await api.updateBranch({ ...REF, branch: { protected: true, expires_at: null } });

    expect(seen["authorization"]).toBe("Bearer test-key-123");
    expect(String(seen["user-agent"])).toMatch(/^svc-config\/\d+\.\d+\.\d+/);
    expect(seen["content-type"]).toBe("application/json");
    expect(body).toEqual({ branch: { protected: true, expires_at: null } });
  });

  it("percent-encodes path segments", async () => {
    const scope = platform().delete(`${BRANCH_PATH}/custom-domains/a%2Fb.example.com`).reply(204);
    const { api } = testClient();

    await api.deleteCustomDomain({ ...REF, domain: "a/b.example.com" });

    scope.done();
  });
});

describe("response bodies", () => {
  it("rejects a body of the wrong shape with PLATFORM_API_ERROR naming the route and field", async () => {
    platform()
      .get(PROJECT_PATH)
      .reply(200, { project: { ...PROJECT, pg_version: "seventeen" } }, JSON_HEADERS);
    const { api } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_API_ERROR");
    expect(err.details?.["reason"]).toBe("unexpected response shape");
    expect(err.message).toContain(`GET ${PROJECT_PATH}`);
    expect(err.message).toContain('"project.pg_version"');
  });

  it.each([
    { name: "a non-JSON success body", body: "<html>hello</html>", headers: { "content-type": "text/html" } },
    { name: "truncated JSON", body: '{"project": {', headers: JSON_HEADERS },
  ])("rejects $name as an unexpected response shape", async ({ body, headers }) => {
    platform().get(PROJECT_PATH).reply(200, body, headers);
    const { api } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_API_ERROR");
    expect(err.details?.["reason"]).toBe("unexpected response shape");
  });

  it("keeps unknown fields and unknown enum values out of the way", async () => {
    platform()
      .get(`${BRANCH_PATH}/buckets`)
      .reply(200, { buckets: [{ name: "a", access_level: "public_write_someday", surprise: 1 }], extra: true }, JSON_HEADERS);
    const { api } = testClient();

    await expect(api.listBuckets(REF)).resolves.toEqual([{ name: "a", access_level: "public_write_someday" }]);
  });

  it("wraps a plain-text error body as the message", async () => {
    platform().get(PROJECT_PATH).reply(404, "this route does not exist", { "content-type": "text/plain", "x-request-id": "hdr-1" });
    const { api } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_NOT_FOUND");
    expect(err.details?.["apiMessage"]).toBe("this route does not exist");
    expect(err.details?.["requestId"]).toBe("hdr-1");
  });

  it.each([
    { name: "at the top level", body: { code: "name_taken", message: "branch exists", request_id: "body-1" } },
    { name: "under error", body: { error: { code: "name_taken", message: "branch exists", request_id: "body-1" } } },
  ])("reads an error body $name, preferring its request id over the header", async ({ body }) => {
    platform().post(`${PROJECT_PATH}/branches`).reply(409, body, { ...JSON_HEADERS, "x-request-id": "hdr-2" });
    const { api } = testClient();

    const err = await rejection(api.createBranch({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_CONFLICT");
    expect(err.details).toMatchObject({ status: 409, apiCode: "name_taken", apiMessage: "branch exists", requestId: "body-1" });
    expect(err.message).toContain("body-1");
  });

  it.each([
    { name: "code feature_unavailable", path: "functions", reply: { code: "feature_unavailable", message: "Functions are not available in this region" } },
    { name: "a storage reason", path: "buckets", reply: { code: "not_found", message: "no storage", reason: "region_unavailable" } },
    { name: "a claim requirement", path: "triggers", status: 403, reply: { code: "capability_requires_claim", message: "claim first" } },
  ])("turns $name into PLATFORM_FEATURE_UNAVAILABLE", async ({ path, reply, status }) => {
    platform()
      .get(`${BRANCH_PATH}/${path}`)
      .query(true)
      .reply(status ?? 404, reply, JSON_HEADERS);
    const { api } = testClient();
    const call = path === "functions" ? api.listFunctions(REF) : path === "buckets" ? api.listBuckets(REF) : api.listTriggers(REF);

    const err = await rejection(call);

    expect(err.code).toBe("PLATFORM_FEATURE_UNAVAILABLE");
  });
});

describe("tolerances", () => {
  it("reads auth and the Data API as absent on 404", async () => {
    platform()
      .get(`${BRANCH_PATH}/auth`)
      .reply(404, { code: "not_found", message: "auth not enabled" }, JSON_HEADERS)
      .get(`${BRANCH_PATH}/data-api/neondb`)
      .reply(404, { code: "not_found", message: "data api not enabled" }, JSON_HEADERS);
    const { api } = testClient();

    await expect(api.getAuth(REF)).resolves.toBeNull();
    await expect(api.getDataApi({ ...REF, databaseName: "neondb" })).resolves.toBeNull();
  });

  it.each([
    { kind: "function", path: "functions/hello", call: (api: PlatformApi) => api.deleteFunction({ ...REF, slug: "hello" }) },
    { kind: "trigger", path: "triggers/t-1", call: (api: PlatformApi) => api.deleteTrigger({ ...REF, triggerId: "t-1" }) },
    { kind: "bucket", path: "buckets/media", call: (api: PlatformApi) => api.deleteBucket({ ...REF, bucket: "media" }) },
    { kind: "domain", path: "custom-domains/x.example.com", call: (api: PlatformApi) => api.deleteCustomDomain({ ...REF, domain: "x.example.com" }) },
    { kind: "data api", path: "data-api/neondb", call: (api: PlatformApi) => api.deleteDataApi({ ...REF, databaseName: "neondb" }) },
  ])("treats deleting a $kind that is already gone as success", async ({ path, call }) => {
    const scope = platform().delete(`${BRANCH_PATH}/${path}`).reply(404, { code: "not_found", message: "gone" }, JSON_HEADERS);
    const { api } = testClient();

    await expect(call(api)).resolves.toBeUndefined();
    scope.done();
  });

  it("reads auth back when enabling it answers 409", async () => {
    platform()
      .post(`${BRANCH_PATH}/auth`, { auth_provider: "better_auth", database_name: "neondb" })
      .reply(409, { code: "conflict", message: "already enabled" }, JSON_HEADERS)
      .get(`${BRANCH_PATH}/auth`)
      .reply(200, { auth_provider: "better_auth", db_name: "neondb", jwks_url: "https://jwks", schema_name: "svc_auth" }, JSON_HEADERS);
    const { api } = testClient();

    const result = await api.createAuth({ ...REF, databaseName: "neondb" });

    expect(result).toEqual({
      alreadyEnabled: true,
      credentials: { auth_provider: "better_auth", jwks_url: "https://jwks", schema_name: "svc_auth", base_url: undefined },
    });
  });

  it("counts enabling a Data API that is already enabled as success", async () => {
    platform().post(`${BRANCH_PATH}/data-api/neondb`).reply(409, { code: "conflict", message: "already" }, JSON_HEADERS);
    const { api } = testClient();

    await expect(api.createDataApi({ ...REF, databaseName: "neondb" })).resolves.toEqual({ alreadyEnabled: true });
  });

  it("creates an endpoint on the branch with the settings given, reads back its name, and reports deleting a missing one (204) as not deleted", async () => {
    let body: unknown;
    const endpoint = { id: "ep-reader-1", branch_id: "br-a-1", name: "reader", type: "read_only", autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2, suspend_timeout_seconds: 0 };
    platform()
      .post(`${PROJECT_PATH}/endpoints`)
      .reply((_uri, requestBody) => {
        body = requestBody;
        return [201, { endpoint, operations: [{ id: "op-1", action: "start_compute", status: "running" }] }, JSON_HEADERS];
      })
      .delete(`${PROJECT_PATH}/endpoints/ep-reader-1`)
      .reply(204);
    const { api } = testClient();

    const created = await api.createEndpoint({ ...REF, endpoint: { type: "read_only", name: "reader", autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2 } });

    expect(body).toEqual({ endpoint: { branch_id: "br-a-1", type: "read_only", name: "reader", autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2 } });
    expect([created.endpoint.id, created.endpoint.name, created.operations.map((o) => o.action)]).toEqual(["ep-reader-1", "reader", ["start_compute"]]);
    await expect(api.deleteEndpoint({ projectId: PROJECT.id, endpointId: "ep-reader-1" })).resolves.toEqual({ deleted: false, operations: [] });
  });

  it("reports deleting a missing branch (204) as not deleted", async () => {
    platform().delete(BRANCH_PATH).reply(204);
    const { api } = testClient();

    await expect(api.deleteBranch(REF)).resolves.toEqual({ deleted: false, operations: [] });
  });
});

describe("pagination", () => {
  it("follows next-flavour pages with next, else cursor, until neither is set", async () => {
    const scope = platform()
      .get(`${PROJECT_PATH}/branches`)
      .query({ limit: "10000" })
      .reply(200, { branches: [branch("br-a-1", "a")], pagination: { next: "n1", cursor: "c1" } }, JSON_HEADERS)
      .get(`${PROJECT_PATH}/branches`)
      .query({ limit: "10000", cursor: "n1" })
      .reply(200, { branches: [branch("br-b-2", "b")], pagination: { cursor: "c2" } }, JSON_HEADERS)
      .get(`${PROJECT_PATH}/branches`)
      .query({ limit: "10000", cursor: "c2" })
      .reply(200, { branches: [branch("br-c-3", "c")], pagination: {} }, JSON_HEADERS);
    const { api } = testClient();

    const branches = await api.listBranches({ projectId: PROJECT.id });

    expect(branches.map((b) => b.name)).toEqual(["a", "b", "c"]);
    scope.done();
  });

  it("follows cursor-flavour pages until an empty page", async () => {
    const scope = platform()
      .get("/projects")
      .query({ limit: "400" })
      .reply(200, { projects: [PROJECT], pagination: { cursor: "2026-01-01T00:00:00Z" } }, JSON_HEADERS)
      .get("/projects")
      .query({ limit: "400", cursor: "2026-01-01T00:00:00Z" })
      .reply(200, { projects: [], pagination: { cursor: "2026-01-01T00:00:00Z" } }, JSON_HEADERS);
    const { api } = testClient();

    await expect(api.listProjects()).resolves.toHaveLength(1);
    scope.done();
  });

  it("asks for functions and custom domains 1000 at a time", async () => {
    const scope = platform()
      .get(`${BRANCH_PATH}/functions`)
      .query({ limit: "1000" })
      .reply(200, { functions: [{ slug: "hello", name: "Hello", invocation_url: "" }] }, JSON_HEADERS)
      .get(`${BRANCH_PATH}/custom-domains`)
      .query({ limit: "1000" })
      .reply(200, { custom_domains: [] }, JSON_HEADERS);
    const { api } = testClient();

    await expect(api.listFunctions(REF)).resolves.toHaveLength(1);
    await expect(api.listCustomDomains(REF)).resolves.toEqual([]);
    scope.done();
  });
});

describe("function builds", () => {
  it("lists every page of functions with only what a build watcher reads", async () => {
    const deployment = (id: number, status: string) => ({ id, status, runtime: "nodejs24", memory_mib: 256, environment: ["A", "B"], error: null });
    const scope = platform()
      .get(`${BRANCH_PATH}/functions`)
      .query({ limit: "1000" })
      .reply(200, { functions: [{ slug: "a", name: "A", invocation_url: "https://a", current_deployment: deployment(2, "building"), active_deployment: deployment(1, "completed") }], pagination: { next: "n1" } }, JSON_HEADERS)
      .get(`${BRANCH_PATH}/functions`)
      .query({ limit: "1000", cursor: "n1" })
      .reply(200, { functions: [{ slug: "b", name: "B", current_deployment: { ...deployment(5, "failed"), error: "syntax error" } }, { slug: "c", name: "C" }] }, JSON_HEADERS);
    const { api } = testClient();

    const builds = await api.listFunctionBuilds(REF);

    expect(builds).toStrictEqual([
      { slug: "a", invocation_url: "https://a", current_deployment: { id: 2, status: "building" } },
      { slug: "b", invocation_url: "", current_deployment: { id: 5, status: "failed", error: "syntax error" } },
      { slug: "c", invocation_url: "" },
    ]);
    scope.done();
  });

  it("refuses a build state of the wrong shape, naming the field", async () => {
    platform()
      .get(`${BRANCH_PATH}/functions`)
      .query(true)
      .reply(200, { functions: [{ slug: "a", current_deployment: { id: "2", status: "building" } }] }, JSON_HEADERS);
    const { api } = testClient();

    const err = await rejection(api.listFunctionBuilds(REF));

    expect(err.details?.["reason"]).toBe("unexpected response shape");
    expect(err.message).toContain('"functions.0.current_deployment.id"');
  });
});

function branch(id: string, name: string): Record<string, unknown> {
  return { id, name, default: false, protected: false, created_at: "2026-01-01T00:00:00Z" };
}
