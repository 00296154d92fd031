import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import type { ApiOperation } from "../../../src/api/platform-api.js";
import { rejection } from "./helpers.js";

const REF = { projectId: "calm-river-123456", branchId: "br-a-1" };

/** A fetch that records each request and answers from a queue. */
function recordingFetch(responses: (() => Response)[]): { fetch: typeof fetch; requests: Request[] } {
  const requests: Request[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    requests.push(new Request(input, init));
    const next = responses.shift();
    if (next === undefined) throw new Error("no response queued");
    return next();
  };
  return { fetch: fetchImpl, requests };
}

function json(status: number, body: unknown): () => Response {
  return () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

describe("deployment uploads", () => {
  it("sends zip, runtime and environment as multipart parts, zip first and byte for byte", async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0x80, 0x0a, 0x0d]);
    const { fetch, requests } = recordingFetch([json(201, { deployment: { id: 3, status: "pending", runtime: "nodejs24" } })]);
    const api = createPlatformApi({ apiKey: "k", apiHost: "http://api.test", fetch });

    const deployment = await api.createDeployment({
      ...REF,
      slug: "hello",
      zip,
      runtime: "nodejs24",
      environment: { API_URL: "https://x", OLD: "" },
    });

    expect(deployment).toEqual({ id: 3, status: "pending", runtime: "nodejs24" });
    const request = requests[0];
    if (request === undefined) throw new Error("no request");
    expect(request.method).toBe("POST");
    expect(new URL(request.url).pathname).toBe("/api/v2/projects/calm-river-123456/branches/br-a-1/functions/hello/deployments");
    expect(request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = await request.formData();
    expect([...form.keys()]).toEqual(["zip", "runtime", "environment"]);
    const file = form.get("zip");
    if (!(file instanceof File)) throw new Error("zip is not a file part");
    expect(file.name).toBe("bundle.zip");
    expect(file.type).toBe("application/zip");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(zip);
    expect(form.get("runtime")).toBe("nodejs24");
    expect(form.get("environment")).toBe('{"API_URL":"https://x","OLD":""}');
  });

  it("sends only the environment part for an env-only redeploy", async () => {
    const { fetch, requests } = recordingFetch([json(201, { deployment: { id: 4, status: "pending", runtime: "nodejs24" } })]);
    const api = createPlatformApi({ apiKey: "k", apiHost: "http://api.test", fetch });

    await api.createDeployment({ ...REF, slug: "hello", environment: { A: "1" } });

    const form = await requests[0]?.formData();
    expect([...(form?.keys() ?? [])]).toEqual(["environment"]);
  });
});

describe("options", () => {
  it.each([
    { name: "no API key", options: { apiKey: "" }, code: "PLATFORM_MISSING_API_KEY" },
    { name: "a blank API key", options: { apiKey: "   " }, code: "PLATFORM_MISSING_API_KEY" },
    { name: "an ftp apiHost", options: { apiKey: "k", apiHost: "ftp://host" }, code: "PLATFORM_INVALID_OPTIONS" },
    { name: "an apiHost that is not a URL", options: { apiKey: "k", apiHost: "localhost:8080" }, code: "PLATFORM_INVALID_OPTIONS" },
    { name: "a negative timeout", options: { apiKey: "k", timeouts: { requestMs: -1 } }, code: "PLATFORM_INVALID_OPTIONS" },
    { name: "polling max below initial", options: { apiKey: "k", polling: { initialMs: 500, maxMs: 100 } }, code: "PLATFORM_INVALID_OPTIONS" },
  ])("rejects $name with $code before any request", ({ options, code }) => {
    expect(() => createPlatformApi(options)).toThrow(expect.objectContaining({ code }));
  });

  it.each([
    { apiHost: "http://127.0.0.1:4010", url: "http://127.0.0.1:4010/api/v2/projects/p-1" },
    { apiHost: "http://127.0.0.1:4010/", url: "http://127.0.0.1:4010/api/v2/projects/p-1" },
    { apiHost: "https://proxy.example/custom/v2/", url: "https://proxy.example/custom/v2/projects/p-1" },
    { apiHost: undefined, url: "https://console.neon.tech/api/v2/projects/p-1" },
  ])("sends requests for apiHost $apiHost to $url", async ({ apiHost, url }) => {
    const project = { id: "p-1", name: "p", region_id: "r", pg_version: 17 };
    const { fetch, requests } = recordingFetch([json(200, { project })]);
    const api = createPlatformApi({ apiKey: " k ", fetch, ...(apiHost === undefined ? {} : { apiHost }) });

    await api.getProject({ projectId: "p-1" });

    expect(requests[0]?.url).toBe(url);
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer k");
  });
});

describe("waiting for operations", () => {
  const running = (id: string, action: string): ApiOperation => ({ id, action, status: "running" });
  const ACTIONS: Record<string, string> = { "op-1": "apply_config", "op-2": "start_compute", "op-3": "suspend_compute" };

  /**
   * A platform whose operations list is `history` (newest first) and whose pending operations
   * advance one status per list request; `pageSize` caps a page whatever the client asks.
   */
  function waitingClient(options: { statuses: Record<string, string[]>; history?: string[]; pageSize?: number; polling?: { initialMs: number; maxMs: number } }) {
    const delays: number[] = [];
    const requests: string[] = [];
    let clock = 0;
    const record = (id: string, status: string) => ({ id, action: ACTIONS[id] ?? "apply_config", status, error: status === "failed" ? "disk full" : undefined });
    const current = new Map<string, string>();
    const fetchImpl: typeof fetch = async (input) => {
      const url = new URL(String(input));
      requests.push(`${url.pathname.replace("/api/v2/projects/p-1", "")}${url.search}`);
      const single = /\/operations\/(.+)$/.exec(url.pathname);
      if (single !== null) return json(200, { operation: record(single[1] ?? "", current.get(single[1] ?? "") ?? "finished") })();
      const cursor = Number(url.searchParams.get("cursor") ?? "0");
      if (cursor === 0) for (const [id, queue] of Object.entries(options.statuses)) current.set(id, queue.shift() ?? current.get(id) ?? "running");
      const all = options.history ?? Object.keys(options.statuses);
      const size = Math.min(Number(url.searchParams.get("limit")), options.pageSize ?? Infinity);
      const page = all.slice(cursor, cursor + size).map((id) => record(id, current.get(id) ?? "finished"));
      return json(200, { operations: page, pagination: page.length > 0 ? { cursor: String(cursor + page.length) } : {} })();
    };
    const api = createPlatformApi({
      apiKey: "k",
      apiHost: "http://api.test",
      fetch: fetchImpl,
      timeouts: { operationMs: 20_000 },
      ...(options.polling === undefined ? {} : { polling: options.polling }),
      sleep: async (ms) => {
        delays.push(ms);
        clock += ms;
      },
      now: () => clock,
    });
    return { api, delays, requests };
  }

  it("reads the list once per tick for every pending operation, pausing 100 ms, then a fifth of the wait so far, up to 1 s", async () => {
    const queue = [...Array.from({ length: 20 }, () => "running"), "finished"];
    const { api, delays, requests } = waitingClient({ statuses: { "op-1": [...queue], "op-2": [...queue] } });

    const finals = await Promise.all([
      api.waitForOperations({ projectId: "p-1", operations: [running("op-1", "apply_config")] }),
      api.waitForOperations({ projectId: "p-1", operations: [running("op-2", "start_compute")] }),
    ]);

    expect(finals.flat().map((o) => `${o.id} ${o.status}`)).toEqual(["op-1 finished", "op-2 finished"]);
    expect(delays).toEqual([100, 100, 100, 100, 100, 100, 120, 144, 173, 207, 249, 299, 358, 430, 516, 619, 743, 892, 1000, 1000, 1000]);
    expect(requests).toEqual(delays.map(() => "/operations?limit=100"));
  });

  it("starts the ticks over at 100 ms once an operation completes", async () => {
    const runs = (n: number) => [...Array.from({ length: n }, () => "running"), "finished"];
    const { api, delays } = waitingClient({ statuses: { "op-1": runs(8), "op-2": runs(10) } });

    await api.waitForOperations({ projectId: "p-1", operations: [running("op-1", "apply_config"), running("op-2", "start_compute")] });

    // op-1 completes on the 9th tick (1,037 ms into the wait): 100 ms, then a fifth of the 1,137 ms waited.
    expect(delays).toEqual([100, 100, 100, 100, 100, 100, 120, 144, 173, 100, 227]);
  });

  it("pages the list until every pending operation is seen, and reads one the list no longer shows by id", async () => {
    const { api, requests } = waitingClient({ statuses: { "op-1": ["finished"], "op-2": ["finished"] }, history: ["op-3", "op-1"], pageSize: 1 });

    const finals = await api.waitForOperations({ projectId: "p-1", operations: [running("op-1", "apply_config"), running("op-2", "start_compute")] });

    expect(finals.map((o) => `${o.id} ${o.status}`)).toEqual(["op-1 finished", "op-2 finished"]);
    expect(requests).toEqual(["/operations?limit=100", "/operations?limit=100&cursor=1", "/operations?limit=100&cursor=2", "/operations/op-2"]);
  });

  it("does not poll operations that already ended", async () => {
    const { api, delays, requests } = waitingClient({ statuses: {} });

    await api.waitForOperations({ projectId: "p-1", operations: [{ id: "op-1", action: "apply_config", status: "finished" }] });

    expect(delays).toEqual([]);
    expect(requests).toEqual([]);
  });

  it.each(["failed", "error", "cancelled"])("reports an operation that ended %s with its id and action, failing only its own wait", async (status) => {
    const { api } = waitingClient({ statuses: { "op-1": [status], "op-2": ["running", "finished"] }, polling: { initialMs: 50, maxMs: 50 } });

    const [failed, other] = await Promise.allSettled([
      rejection(api.waitForOperations({ projectId: "p-1", operations: [running("op-1", "apply_config")] })),
      api.waitForOperations({ projectId: "p-1", operations: [running("op-2", "start_compute")] }),
    ]);

    const err = failed.status === "fulfilled" ? failed.value : undefined;
    expect(err?.message).toContain("op-1");
    expect(err?.message).toContain("apply_config");
    expect(err?.details).toMatchObject({ operationId: "op-1", action: "apply_config", status });
    expect(other.status).toBe("fulfilled");
  });

  it("gives up with PLATFORM_TIMEOUT once operationMs has passed, naming the operation", async () => {
    const { api } = waitingClient({ statuses: { "op-2": [] } });

    const err = await rejection(api.waitForOperations({ projectId: "p-1", operations: [running("op-2", "start_compute")] }));

    expect(err.code).toBe("PLATFORM_TIMEOUT");
    expect(err.message).toContain("op-2");
    expect(err.message).toContain("start_compute");
  });
});

describe("schema comparison", () => {
  it("asks compare_schema for one database, against the parent unless a base is given, and returns the platform's diff", async () => {
    const { fetch, requests } = recordingFetch([json(200, { diff: "" }), json(200, { diff: "--- a\n+++ b\n" })]);
    const api = createPlatformApi({ apiKey: "k", apiHost: "http://api.test", fetch });

    expect(await api.compareSchema({ ...REF, databaseName: "app db" })).toBe("");
    expect(await api.compareSchema({ ...REF, databaseName: "neondb", baseBranchId: "br-main-1" })).toBe("--- a\n+++ b\n");

    const asked = requests.map((r) => new URL(r.url));
    expect(asked.map((u) => u.pathname)).toEqual(["/api/v2/projects/calm-river-123456/branches/br-a-1/compare_schema", "/api/v2/projects/calm-river-123456/branches/br-a-1/compare_schema"]);
    expect(asked.map((u) => Object.fromEntries(u.searchParams))).toEqual([{ db_name: "app db" }, { db_name: "neondb", base_branch_id: "br-main-1" }]);
  });

  it("refuses a response without a diff as an unexpected shape", async () => {
    const { fetch } = recordingFetch([json(200, { sql: "CREATE TABLE x ();" })]);
    const api = createPlatformApi({ apiKey: "k", apiHost: "http://api.test", fetch });

    const err = await rejection(api.compareSchema({ ...REF, databaseName: "neondb" }));

    expect(err.message).toContain("compare_schema");
  });
});
