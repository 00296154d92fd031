import { readFileSync } from "node:fs";
import { createPlatformApi } from "../../../src/api/index.js";
import type { PlatformApi } from "../../../src/api/platform-api.js";

/** One request the fixture platform answered, with the wave it belongs to. */
export interface RecordedRequest {
  method: string;
  path: string;
  wave: number;
}

/** A client over recorded wire responses, counting sequential request waves. */
export interface FixturePlatform {
  api: PlatformApi;
  requests: RecordedRequest[];
  /** The number of sequential waves so far. */
  waves(): number;
}

/** The recorded routes of a fixture folder under fixtures/wire/. */
export function loadRoutes(name: string): Record<string, unknown> {
  const url = new URL(`../../../fixtures/wire/${name}/routes.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>;
}

/**
 * Serves `routes` (`"GET /api/v2/…"` → body; unknown routes 404). A request's wave is one more
 * than the highest wave finished before it started; answers are deferred to the next macrotask
 * so requests started together share a wave.
 */
export function fixturePlatform(routes: Record<string, unknown>, overrides: Record<string, { status: number; body: unknown }> = {}): FixturePlatform {
  const requests: RecordedRequest[] = [];
  let finishedWave = 0;
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    const key = `${method} ${url.pathname}`;
    const wave = finishedWave + 1;
    requests.push({ method, path: url.pathname, wave });
    await new Promise((resolve) => setImmediate(resolve));
    finishedWave = Math.max(finishedWave, wave);
    const override = overrides[key];
    if (override !== undefined) return jsonResponse(override.status, override.body);
    const body = routes[key];
    if (body === undefined) return jsonResponse(404, { code: "not_found", message: `no fixture for ${key}` });
    return jsonResponse(200, body);
  };
  const api = createPlatformApi({ apiKey: "fixture-key", apiHost: "http://fixture.test", fetch: fetchImpl, sleep: async () => {} });
  return { api, requests, waves: () => Math.max(0, ...requests.map((r) => r.wave)) };
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
