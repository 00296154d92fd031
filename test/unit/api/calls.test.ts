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

  function waitingClient(statuses: Record<string, string[]>, polling?: { initialMs: number; maxMs: number }) {
    const delays: number[] = [];
    let clock = 0;
    const fetchImpl: typeof fetch = async (input) => {
      const id = String(input).split("/").pop() ?? "";
      const status = statuses[id]?.shift() ?? "running";
      return json(200, { operation: { id, action: id === "op-1" ? "apply_config" : "start_compute", status, error: status === "failed" ? "disk full" : undefined } })();
    };
    const api = createPlatformApi({
      apiKey: "k",
      apiHost: "http://api.test",
      fetch: fetchImpl,
      timeouts: { operationMs: 20_000 },
      ...(polling === undefined ? {} : { polling }),
      sleep: async (ms) => {
        delays.push(ms);
        clock += ms;
      },
      now: () => clock,
    });
    return { api, delays };
  }

  it("polls from 100 ms, ×1.5 per tick up to 1 s, until every operation finished", async () => {
    const { api, delays } = waitingClient({ "op-1": ["running", "running", "running", "running", "running", "running", "running", "finished"], "op-2": ["skipped"] });

    const finals = await api.waitForOperations({ projectId: "p-1", operations: [running("op-1", "apply_config"), running("op-2", "start_compute")] });

    expect(finals.map((o) => o.status)).toEqual(["finished", "skipped"]);
    expect(delays).toEqual([100, 150, 225, 338, 507, 761, 1000, 1000, 100]);
  });

  it("does not poll operations that already ended", async () => {
    const { api, delays } = waitingClient({});

    await api.waitForOperations({ projectId: "p-1", operations: [{ id: "op-1", action: "apply_config", status: "finished" }] });

    expect(delays).toEqual([]);
  });

  it.each(["failed", "error", "cancelled"])("reports an operation that ended %s with its id and action", async (status) => {
    const { api } = waitingClient({ "op-1": [status] }, { initialMs: 50, maxMs: 50 });

    const err = await rejection(api.waitForOperations({ projectId: "p-1", operations: [running("op-1", "apply_config")] }));

    expect(err.message).toContain("op-1");
    expect(err.message).toContain("apply_config");
    expect(err.details).toMatchObject({ operationId: "op-1", action: "apply_config", status });
  });

  it("gives up with PLATFORM_TIMEOUT once operationMs has passed", async () => {
    const { api } = waitingClient({});

    const err = await rejection(api.waitForOperations({ projectId: "p-1", operations: [running("op-2", "start_compute")] }));

    expect(err.code).toBe("PLATFORM_TIMEOUT");
    expect(err.message).toContain("op-2");
  });
});
