import { describe, expect, it } from "vitest";
import { decideRetry, parseRetryAfterMs } from "../../../src/api/retry-policy.js";
import { createPlatformApi } from "../../../src/api/index.js";

describe("retry decisions", () => {
  it.each([
    { name: "a 423 on a POST is retried on the schedule", method: "POST", status: 423, retries: 2, expected: { retry: true, delayMs: 400 } },
    { name: "a 423 on the fifth request gives up (five requests in all)", method: "GET", status: 423, retries: 4, expected: { retry: false, why: "exhausted" } },
    { name: "a 423 on the fourth request is retried once more", method: "GET", status: 423, retries: 3, expected: { retry: true, delayMs: 800 } },
    { name: "a 423 ignores Retry-After", method: "GET", status: 423, retries: 0, retryAfterMs: 60_000, expected: { retry: true, delayMs: 100 } },
    { name: "a 503 takes the longer Retry-After", method: "DELETE", status: 503, retries: 3, retryAfterMs: 500, expected: { retry: true, delayMs: 800 } },
    { name: "a 503 asking for 31 s gives up", method: "GET", status: 503, retries: 0, retryAfterMs: 31_000, expected: { retry: false, why: "retry-after-too-long" } },
    { name: "a 429 asking for exactly 30 s waits", method: "GET", status: 429, retries: 0, retryAfterMs: 30_000, expected: { retry: true, delayMs: 30_000 } },
    { name: "a 500 on a GET is retried", method: "GET", status: 500, retries: 0, expected: { retry: true, delayMs: 100 } },
    { name: "a 504 on a PUT is unsafe", method: "PUT", status: 504, retries: 0, expected: { retry: false, why: "unsafe-method" } },
    { name: "a 501 is not retried", method: "GET", status: 501, retries: 0, expected: { retry: false, why: "not-retryable" } },
    { name: "a 409 is not retried", method: "POST", status: 409, retries: 0, expected: { retry: false, why: "not-retryable" } },
  ])("$name", ({ method, status, retries, retryAfterMs, expected }) => {
    const outcome = retryAfterMs === undefined ? { kind: "status" as const, status } : { kind: "status" as const, status, retryAfterMs };
    expect(decideRetry({ method, outcome, retriesSoFar: retries, jitter: 0 })).toEqual(expected);
  });

  it.each([
    { method: "HEAD", expected: { retry: true, delayMs: 200 } },
    { method: "OPTIONS", expected: { retry: true, delayMs: 200 } },
    { method: "PATCH", expected: { retry: false, why: "unsafe-method" } },
  ])("no response to a $method decides $expected", ({ method, expected }) => {
    expect(decideRetry({ method, outcome: { kind: "no-response" }, retriesSoFar: 1, jitter: 0 })).toEqual(expected);
  });

  it("never adds more than 10 % jitter", () => {
    const delays = [0, 0.5, 0.999999, 5].map((jitter) => decideRetry({ method: "GET", outcome: { kind: "status", status: 423 }, retriesSoFar: 3, jitter }));
    expect(delays).toEqual([
      { retry: true, delayMs: 800 },
      { retry: true, delayMs: 840 },
      { retry: true, delayMs: 880 },
      { retry: true, delayMs: 880 },
    ]);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    { header: "3", expected: 3000 },
    { header: " 1.5 ", expected: 1500 },
    { header: "Thu, 01 Jan 2026 00:00:10 GMT", expected: 10_000 },
    { header: "Wed, 31 Dec 2025 23:59:00 GMT", expected: 0 },
    { header: "soon", expected: undefined },
    { header: null, expected: undefined },
  ])("reads $header as $expected ms", ({ header, expected }) => {
    expect(parseRetryAfterMs(header, now)).toBe(expected);
  });
});

describe("cancellation while waiting", () => {
  it("stops a retry wait with PLATFORM_CANCELLED when the signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    const api = createPlatformApi({
      apiKey: "k",
      apiHost: "http://api.test",
      signal: controller.signal,
      fetch: async () => {
        calls += 1;
        return new Response("{}", { status: 423, headers: { "content-type": "application/json" } });
      },
      sleep: async () => {
        controller.abort();
        throw new Error("aborted");
      },
    });

    await expect(api.getProject({ projectId: "p-1" })).rejects.toMatchObject({ code: "PLATFORM_CANCELLED" });
    expect(calls).toBe(1);
  });
});
