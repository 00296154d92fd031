import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApi as createEagerPlatformApi } from "../../../src/api/create-platform-api.js";
import { createPlatformApi as createDeferredPlatformApi } from "../../../src/api/deferred-platform-api.js";
import type { PlatformApi } from "../../../src/api/platform-api.js";
import { type RequestReport, observedApi } from "../../../src/api/request-observer.js";
import type { ApiRetryEvent } from "../../../src/model/events.js";
import { JSON_HEADERS, ORIGIN, PROJECT, platform, testClient } from "./helpers.js";

const PROJECT_PATH = `/projects/${PROJECT.id}`;

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});

function recorder(): { requests: string[]; retries: number[]; observer: { onRequest: (r: RequestReport) => void; onRetry: (e: ApiRetryEvent) => void } } {
  const requests: string[] = [];
  const retries: number[] = [];
  return { requests, retries, observer: { onRequest: (r) => requests.push(`${r.method} ${r.path} ${String(r.status)}`), onRetry: (e) => retries.push(e.attempt) } };
}

const clients: { name: string; make: () => Required<PlatformApi> }[] = [
  { name: "the deferred client svc-config/v1 exports", make: () => createDeferredPlatformApi({ apiKey: "k", apiHost: ORIGIN }) },
  { name: "the client the engine builds", make: () => createEagerPlatformApi({ apiKey: "k", apiHost: ORIGIN }) },
];

describe("observedApi", () => {
  it.each(clients)("reports the requests of $name's observed sibling, and only its own", async ({ make }) => {
    platform().get(PROJECT_PATH).times(3).reply(200, { project: PROJECT }, JSON_HEADERS);
    const api = make();
    const first = recorder();
    const second = recorder();
    const a = observedApi(api, first.observer);
    const b = observedApi(api, second.observer);

    await Promise.all([a.getProject({ projectId: PROJECT.id }), b.getProject({ projectId: PROJECT.id }), api.getProject({ projectId: PROJECT.id })]);

    expect(first.requests).toEqual([`GET ${PROJECT_PATH} 200`]);
    expect(second.requests).toEqual([`GET ${PROJECT_PATH} 200`]);
  });

  it.each(clients)("gives $name's observed sibling every call the client has, in the same order", ({ make }) => {
    const api = make();
    const sibling = observedApi(api, recorder().observer);
    expect(Object.keys(sibling)).toEqual(Object.keys(api));
    expect(Object.values(sibling).every((call) => typeof call === "function")).toBe(true);
  });

  it("keeps the listeners a sibling of a sibling does not set", async () => {
    platform().get(PROJECT_PATH).reply(503, { code: "unavailable", message: "busy" }, JSON_HEADERS).get(PROJECT_PATH).reply(200, { project: PROJECT }, JSON_HEADERS);
    const outer = recorder();
    const inner = recorder();
    const api = observedApi(observedApi(testClient().api, outer.observer), { onRequest: inner.observer.onRequest });

    await api.getProject({ projectId: PROJECT.id });

    expect(inner.requests).toEqual([`GET ${PROJECT_PATH} 200`]);
    expect(outer.requests).toEqual([]);
    expect(outer.retries).toEqual([1]);
  });

  it("returns any other adapter as it is, without reading it", () => {
    const adapter = new Proxy({} as PlatformApi, {
      get: (_target, key) => {
        throw new Error(`read ${String(key)}`);
      },
    });

    expect(observedApi(adapter, {})).toBe(adapter);
  });
});
