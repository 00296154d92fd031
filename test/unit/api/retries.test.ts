import { getEventListeners } from "node:events";
import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { JSON_HEADERS, PROJECT, platform, rejection, testClient } from "./helpers.js";

const PROJECT_PATH = `/projects/${PROJECT.id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});

describe("423 Locked", () => {
  it("is retried after 100, 200 and 400 ms with the same request id, then succeeds", async () => {
    const ids: string[] = [];
    const scope = platform()
      .get(PROJECT_PATH)
      .times(3)
      .reply(function () {
        ids.push(String(this.req.headers["x-request-id"]));
        return [423, { code: "locked", message: "project is locked" }];
      })
      .get(PROJECT_PATH)
      .reply(function () {
        ids.push(String(this.req.headers["x-request-id"]));
        return [200, { project: PROJECT }, JSON_HEADERS];
      });
    const { api, delays, events } = testClient();

    const project = await api.getProject({ projectId: PROJECT.id });

    expect(project.name).toBe("shop");
    expect(delays).toEqual([100, 200, 400]);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(UUID);
    expect(events.map((e) => [e.attempt, e.status, e.requestId])).toEqual([
      [1, 423, ids[0]],
      [2, 423, ids[0]],
      [3, 423, ids[0]],
    ]);
    scope.done();
  });

  it("gives up with PLATFORM_LOCKED naming the last request id", async () => {
    const scope = platform().post(`${PROJECT_PATH}/branches`).times(5).reply(423, { code: "locked", message: "busy", request_id: "req-9" });
    const { api, delays } = testClient();

    const err = await rejection(api.createBranch({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_LOCKED");
    expect(err.details?.["attempts"]).toBe(5);
    expect(err.message).toContain("req-9");
    expect(delays).toEqual([100, 200, 400, 800]);
    scope.done();
  });

  it("adds at most 10 % jitter to the schedule", async () => {
    platform().get(PROJECT_PATH).reply(423, {}).get(PROJECT_PATH).reply(200, { project: PROJECT }, JSON_HEADERS);
    const { api, delays } = testClient({ random: () => 0.999 });

    await api.getProject({ projectId: PROJECT.id });

    expect(delays).toEqual([110]);
  });
});

describe("the retry budget: five requests in all", () => {
  it.each([
    { answer: "423", method: "POST", code: "PLATFORM_LOCKED" },
    { answer: "503", method: "POST", code: "PLATFORM_SERVER_ERROR" },
    { answer: "429", method: "POST", code: "PLATFORM_RATE_LIMITED" },
    { answer: "no response", method: "GET", code: "PLATFORM_NETWORK_ERROR" },
  ])("a $method answered $answer every time is sent exactly 5 times, waiting 100, 200, 400, 800 ms, then fails with $code", async ({ answer, method, code }) => {
    let requests = 0;
    const counting: typeof fetch = async () => {
      requests += 1;
      if (answer === "no response") throw new TypeError("fetch failed");
      return new Response(JSON.stringify({ code: "busy", message: "try later" }), { status: Number(answer), headers: JSON_HEADERS });
    };
    const { api, delays, events } = testClient({ fetch: counting });

    const call = method === "GET" ? api.getProject({ projectId: PROJECT.id }) : api.createBranch({ projectId: PROJECT.id });
    const err = await rejection(call);

    expect(requests).toBe(5);
    expect(delays).toEqual([100, 200, 400, 800]);
    expect(events.map((e) => e.attempt)).toEqual([1, 2, 3, 4]);
    expect(err.code).toBe(code);
    expect(err.details?.["attempts"]).toBe(5);
  });
});

describe("503 and 429", () => {
  it.each([
    { status: 503, retryAfter: "2", expected: [2000] },
    { status: 503, retryAfter: undefined, expected: [100] },
    { status: 429, retryAfter: "1", expected: [1000] },
    { status: 429, retryAfter: undefined, expected: [100] },
  ])("$status with Retry-After $retryAfter waits $expected ms, even for a POST", async ({ status, retryAfter, expected }) => {
    const headers: Record<string, string> = retryAfter === undefined ? {} : { "retry-after": retryAfter };
    const scope = platform()
      .post(`/projects/${PROJECT.id}/branches/br-a-1/buckets`)
      .reply(status, { code: "busy", message: "try later" }, headers)
      .post(`/projects/${PROJECT.id}/branches/br-a-1/buckets`)
      .reply(201, { bucket: { name: "media", access_level: "private" } }, JSON_HEADERS);
    const { api, delays } = testClient();

    const bucket = await api.createBucket({ projectId: PROJECT.id, branchId: "br-a-1", name: "media" });

    expect(bucket.name).toBe("media");
    expect(delays).toEqual(expected);
    scope.done();
  });

  it("honours a Retry-After given as an HTTP date", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    platform()
      .get(PROJECT_PATH)
      .reply(429, {}, { "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" })
      .get(PROJECT_PATH)
      .reply(200, { project: PROJECT }, JSON_HEADERS);
    const { api, delays } = testClient({ now: () => now });

    await api.getProject({ projectId: PROJECT.id });

    expect(delays).toEqual([3000]);
  });

  it.each([
    { status: 429, code: "PLATFORM_RATE_LIMITED" },
    { status: 503, code: "PLATFORM_SERVER_ERROR" },
  ])("$status asking to wait more than 30 s fails at once with $code", async ({ status, code }) => {
    const scope = platform().get(PROJECT_PATH).once().reply(status, { code: "slow_down", message: "wait" }, { "retry-after": "120" });
    const { api, delays } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe(code);
    expect(delays).toEqual([]);
    scope.done();
  });
});

/** A socket error as Node reports it (an `Error` with a `code`), for `replyWithError`. */
function networkError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("no response and 500/502/504", () => {
  it("retries a GET after a connection reset", async () => {
    const scope = platform()
      .get(PROJECT_PATH)
      .replyWithError(networkError("ECONNRESET", "socket hang up"))
      .get(PROJECT_PATH)
      .reply(200, { project: PROJECT }, JSON_HEADERS);
    const { api, delays } = testClient();

    await expect(api.getProject({ projectId: PROJECT.id })).resolves.toMatchObject({ id: PROJECT.id });
    expect(delays).toEqual([100]);
    scope.done();
  });

  it("gives up on a GET with PLATFORM_NETWORK_ERROR after five requests", async () => {
    platform().get(PROJECT_PATH).times(5).replyWithError(networkError("ECONNREFUSED", "connect refused"));
    const { api, delays } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(err.message).toContain(`GET ${PROJECT_PATH}`);
    expect(delays).toHaveLength(4);
  });

  it.each([500, 502, 504])("retries a GET answered %i, then reports PLATFORM_SERVER_ERROR", async (status) => {
    platform().get(PROJECT_PATH).times(5).reply(status, { code: "internal", message: "boom" });
    const { api, delays } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_SERVER_ERROR");
    expect(delays).toEqual([100, 200, 400, 800]);
  });

  it("never resends a POST without a response and reports the outcome as unknown with its request id", async () => {
    let sentId = "";
    const scope = platform().post(`${PROJECT_PATH}/branches`).once().replyWithError(networkError("ECONNRESET", "socket hang up"));
    scope.on("request", (req: { headers: Record<string, string> }) => {
      sentId = String(req.headers["x-request-id"]);
    });
    const { api, delays } = testClient();

    const err = await rejection(api.createBranch({ projectId: PROJECT.id, branch: { name: "preview" } }));

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(err.message).toContain(`POST ${PROJECT_PATH}/branches`);
    expect(sentId).toMatch(UUID);
    expect(err.message).toContain(sentId);
    expect(delays).toEqual([]);
    scope.done();
  });

  it.each([
    { method: "PATCH", status: 502 },
    { method: "DELETE", status: 500 },
  ])("does not retry a $method answered $status and reports the outcome as unknown", async ({ method, status }) => {
    const path = `${PROJECT_PATH}/branches/br-a-1`;
    const scope = method === "PATCH" ? platform().patch(path).once().reply(status, {}) : platform().delete(path).once().reply(status, {});
    const { api, delays } = testClient();

    const call =
      method === "PATCH"
        ? api.updateBranch({ projectId: PROJECT.id, branchId: "br-a-1", branch: { protected: true } })
        : api.deleteBranch({ projectId: PROJECT.id, branchId: "br-a-1" });
    const err = await rejection(call);

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(err.details?.["status"]).toBe(status);
    expect(delays).toEqual([]);
    scope.done();
  });

  it("does not retry other 4xx answers", async () => {
    const scope = platform().get(PROJECT_PATH).once().reply(401, { code: "unauthorized", message: "bad key" });
    const { api, delays } = testClient();

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_UNAUTHORIZED");
    expect(err.message).not.toContain("test-key-123");
    expect(delays).toEqual([]);
    scope.done();
  });
});

describe("timeouts", () => {
  it("retries a GET that timed out, then reports PLATFORM_TIMEOUT", async () => {
    platform().get(PROJECT_PATH).times(5).delay(500).reply(200, { project: PROJECT }, JSON_HEADERS);
    const { api, delays } = testClient({ timeouts: { requestMs: 20 } });

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_TIMEOUT");
    expect(err.message).toContain(`GET ${PROJECT_PATH}`);
    expect(delays).toHaveLength(4);
  });

  it("reports a timed-out POST as outcome unknown without resending it", async () => {
    const scope = platform().post(`${PROJECT_PATH}/branches`).once().delay(500).reply(201, {});
    const { api, delays } = testClient({ timeouts: { requestMs: 20 } });

    const err = await rejection(api.createBranch({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(delays).toEqual([]);
    scope.done();
  });

  it("times out attempts sent through a caller's fetch: each one aborted as a timeout, then PLATFORM_TIMEOUT", async () => {
    const reasons: unknown[] = [];
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => {
          reasons.push(init.signal?.reason);
          reject(init.signal?.reason);
        }, { once: true });
      });
    const { api, delays } = testClient({ timeouts: { requestMs: 20 }, fetch: hanging });

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_TIMEOUT");
    expect(delays).toHaveLength(4);
    expect(reasons.map((r) => (r as Error).name)).toEqual(["TimeoutError", "TimeoutError", "TimeoutError", "TimeoutError", "TimeoutError"]);
  });

  it("leaves no listener on the caller's signal once an attempt through fetch has answered", async () => {
    const controller = new AbortController();
    const answering: typeof fetch = async () => new Response(JSON.stringify({ project: PROJECT }), { status: 200, headers: JSON_HEADERS });
    const { api } = testClient({ signal: controller.signal, fetch: answering });

    await Promise.all([api.getProject({ projectId: PROJECT.id }), api.getProject({ projectId: PROJECT.id })]);

    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("stops with PLATFORM_CANCELLED when the caller's signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    const { api } = testClient({ signal: controller.signal });

    const err = await rejection(api.getProject({ projectId: PROJECT.id }));

    expect(err.code).toBe("PLATFORM_CANCELLED");
  });

  it.each([
    { method: "GET", call: (api: ReturnType<typeof testClient>["api"]) => api.getProject({ projectId: PROJECT.id }), code: "PLATFORM_CANCELLED" },
    { method: "POST", call: (api: ReturnType<typeof testClient>["api"]) => api.createBranch({ projectId: PROJECT.id }), code: "PLATFORM_OUTCOME_UNKNOWN" },
  ])("reports a $method aborted in flight by the caller's signal as $code, without resending it", async ({ call, code }) => {
    const controller = new AbortController();
    let sent = 0;
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        sent += 1;
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
        controller.abort();
      });
    const { api, delays } = testClient({ signal: controller.signal, fetch: hanging });

    const err = await rejection(call(api));

    expect(err.code).toBe(code);
    expect(sent).toBe(1);
    expect(delays).toEqual([]);
    if (code === "PLATFORM_OUTCOME_UNKNOWN") expect(err.details).toMatchObject({ method: "POST", path: `${PROJECT_PATH}/branches`, requestId: expect.stringMatching(UUID) });
  });
});
