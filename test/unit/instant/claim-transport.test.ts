/** The claimable database client on the shared transport: its retry rules, time limits, request ids and errors. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RetryInput } from "../../../src/api/retry-policy.js";
import { decideClaimRetry } from "../../../src/instant/claim-retry-rules.js";
import { createClaimableDatabase, getClaimableDatabase } from "../../../src/instant/client.js";

const ID = "0197a3c2-0000-7000-8000-00000000abcd";

function record(id: string): Record<string, unknown> {
  return { id, status: "UNCLAIMED", connection_string: "postgresql://u:p@h-pooler.example/db", claim_url: `https://x/claim/${id}`, expires_at: "2030-01-01T00:00:00.000Z" };
}

interface Seen {
  url: string;
  method: string;
  headers: Headers;
}

/** A fake fetch that records each request and answers with `answer(n)` (n counts from 0). */
function recording(answer: (n: number, request: Seen, signal: AbortSignal | undefined) => Promise<Response>): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fake: typeof fetch = async (input, init) => {
    const request = { url: String(input), method: init?.method ?? "GET", headers: new Headers(init?.headers) };
    seen.push(request);
    return answer(seen.length - 1, request, init?.signal ?? undefined);
  };
  return { fetch: fake, seen };
}

/** Never answers; rejects once the request's signal aborts, as `fetch` does. */
function hang(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    if (signal?.aborted) reject(signal.reason);
    else signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the claimable database API's retry rules", () => {
  const at = (outcome: RetryInput["outcome"], resendable: boolean, retriesSoFar = 0, jitter = 0.5) => decideClaimRetry({ method: "POST", resendable, outcome, retriesSoFar, jitter });
  it.each([
    { name: "503 is retried even when the request may not be resent", got: at({ kind: "status", status: 503 }, false), want: { retry: true, delayMs: 250 } },
    { name: "429 waits its Retry-After", got: at({ kind: "status", status: 429, retryAfterMs: 2000 }, false), want: { retry: true, delayMs: 2000 } },
    { name: "a Retry-After over 10 s waits 10 s", got: at({ kind: "status", status: 503, retryAfterMs: 60_000 }, true), want: { retry: true, delayMs: 10_000 } },
    { name: "500 is retried for a create naming its id", got: at({ kind: "status", status: 500 }, true, 2, 0.25), want: { retry: true, delayMs: 500 } },
    { name: "500 is not retried for a create without an id", got: at({ kind: "status", status: 500 }, false), want: { retry: false, why: "unsafe-method" } },
    { name: "no answer is not retried for a create without an id", got: at({ kind: "no-response" }, false), want: { retry: false, why: "unsafe-method" } },
    { name: "400 is never retried", got: at({ kind: "status", status: 400 }, true), want: { retry: false, why: "not-retryable" } },
    { name: "the fourth attempt is the last", got: at({ kind: "no-response" }, true, 3), want: { retry: false, why: "exhausted" } },
  ])("$name", ({ got, want }) => {
    expect(got).toEqual(want);
  });
});

describe("the claimable database client on the shared transport", () => {
  it("sends every attempt of a create with one request id, its user agent and no API key", async () => {
    const script = recording(async (n, request) => (n < 2 ? json(503, { code: "busy", message: "busy" }, { "retry-after": "0" }) : json(201, record(request.url.split("/").pop() ?? ""))));
    await createClaimableDatabase({ referrer: "unit", apiHost: "https://claim.test/api/v1/", id: ID, fetch: script.fetch });
    expect(script.seen.map((s) => `${s.method} ${s.url}`)).toEqual(Array(3).fill(`POST https://claim.test/api/v1/database/${ID}`));
    const ids = new Set(script.seen.map((s) => s.headers.get("x-request-id")));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(script.seen.every((s) => s.headers.get("authorization") === null && /^svc-config\//.test(s.headers.get("user-agent") ?? ""))).toBe(true);
  });

  it("gives each attempt its own time limit and names the timeout after four attempts", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const script = recording((_n, _request, signal) => hang(signal));
    const err = await createClaimableDatabase({ referrer: "unit", apiHost: "https://claim.test", id: ID, timeoutMs: 20, fetch: script.fetch }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PLATFORM_TIMEOUT", details: { limitMs: 20, attempts: 4 } });
    expect(script.seen).toHaveLength(4);
  });

  it("never resends the fallback create without an id after no answer: its outcome is unknown", async () => {
    const script = recording(async (n, _request, signal) => (n === 0 ? json(404, { code: "route_not_found", message: "no route" }) : hang(signal)));
    const err = await createClaimableDatabase({ referrer: "unit", apiHost: "https://claim.test", id: ID, timeoutMs: 20, fetch: script.fetch }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PLATFORM_OUTCOME_UNKNOWN" });
    expect(script.seen.map((s) => s.url)).toEqual([`https://claim.test/api/v1/database/${ID}`, "https://claim.test/api/v1/database"]);
  });

  it("stops at once when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const script = recording((_n, _request, signal) => {
      controller.abort();
      return hang(signal);
    });
    const err = await getClaimableDatabase(ID, { apiHost: "https://claim.test", signal: controller.signal, fetch: script.fetch }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PLATFORM_CANCELLED" });
    expect(script.seen).toHaveLength(1);
  });

  it("carries the API's code, message, hint and request id in PLATFORM_INSTANT_API_ERROR", async () => {
    const script = recording(async () => json(400, { code: "missing_referrer", message: "Missing referrer", hint: "send a ref", request_id: "rid-7" }));
    const err = await createClaimableDatabase({ referrer: "unit", apiHost: "https://claim.test", id: ID, fetch: script.fetch }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "PLATFORM_INSTANT_API_ERROR",
      message: `POST /api/v1/database/${ID} failed with HTTP 400: Missing referrer (request id rid-7)`,
      details: { databaseId: ID, status: 400, code: "missing_referrer", message: "Missing referrer", hint: "send a ref", requestId: "rid-7" },
    });
    expect(script.seen).toHaveLength(1);
  });

  it("reads an unknown database as null and an answer that is not JSON as a bad response", async () => {
    const missing = recording(async () => json(400, { code: "not_found", message: "Database not found" }));
    expect(await getClaimableDatabase(ID, { apiHost: "https://claim.test", fetch: missing.fetch })).toBeNull();
    const html = recording(async () => new Response("<html>login</html>", { status: 200, headers: { "content-type": "text/html" } }));
    await expect(getClaimableDatabase(ID, { apiHost: "https://claim.test", fetch: html.fetch })).rejects.toMatchObject({ code: "PLATFORM_INSTANT_BAD_RESPONSE" });
  });

  it.each([
    { name: "an id that is not a UUID", options: { id: "../../projects" } },
    { name: "a time limit of zero", options: { timeoutMs: 0 } },
    { name: "a time limit that is not a number", options: { timeoutMs: "5s" as unknown as number } },
  ])("refuses $name before any request", async ({ options }) => {
    const script = recording(async () => json(201, record(ID)));
    await expect(createClaimableDatabase({ referrer: "unit", apiHost: "https://claim.test", fetch: script.fetch, ...options })).rejects.toMatchObject({ code: "PLATFORM_INSTANT_INVALID_OPTIONS" });
    expect(script.seen).toHaveLength(0);
  });
});
