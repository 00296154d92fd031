import nock from "nock";
import { createPlatformApi, type PlatformApiOptions } from "../../../src/api/index.js";
import type { PlatformApi } from "../../../src/api/platform-api.js";
import type { ApiEvent } from "../../../src/api/transport.js";

/** The origin nock intercepts in these tests. */
export const ORIGIN = "http://api.test";
/** The base path the client adds to a bare origin. */
export const BASE = "/api/v2";

/** A client with recorded sleeps and events, no jitter and no real waiting. */
export interface TestClient {
  api: Required<PlatformApi>;
  delays: number[];
  events: ApiEvent[];
}

/** Builds a client against the nock origin. */
export function testClient(overrides: Partial<PlatformApiOptions> = {}): TestClient {
  const delays: number[] = [];
  const events: ApiEvent[] = [];
  const api = createPlatformApi({
    apiKey: "test-key-123",
    apiHost: ORIGIN,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0,
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  return { api, delays, events };
}

/** A nock scope on the API base. */
export function platform(): nock.Scope {
  return nock(`${ORIGIN}${BASE}`);
}

/** JSON response headers. */
export const JSON_HEADERS = { "content-type": "application/json" };

/** A minimal valid project record. */
export const PROJECT = { id: "calm-river-123456", name: "shop", region_id: "aws-us-east-2", pg_version: 17 };

/** Captures what the promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code?: string; details?: Record<string, unknown> };
  }
  throw new Error("expected the call to fail");
}
