/**
 * Request accounting for the bench: recorders of when each request started and ended (the
 * emulator's request log, or a `fetch` wrapper), and the pure measures computed from those
 * records (request count, mutations, deployments, sequential waves).
 */
import type { RequestLogEntry } from "../../src/emulator/index.js";

/** One request as the client saw it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** ms since the recorder was created. */
  start: number;
  /** ms since the recorder was created; `start` when the request failed without a response. */
  end: number;
  /** HTTP status, or 0 for a request that failed without a response. */
  status: number;
}

/** A recording `fetch` and the requests it saw. */
export interface RequestRecorder {
  fetch: typeof globalThis.fetch;
  requests: RecordedRequest[];
  /** Forgets what was recorded so far (between setup and measurement). */
  clear(): void;
}

function describeInput(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): { method: string; path: string } {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request?.url ?? String(input));
  return { method: (init?.method ?? request?.method ?? "GET").toUpperCase(), path: url.pathname };
}

/** Wraps `inner` (default `globalThis.fetch`) so every request is recorded with its timing. */
export function createRequestRecorder(inner: typeof globalThis.fetch = globalThis.fetch): RequestRecorder {
  const origin = performance.now();
  const requests: RecordedRequest[] = [];
  const recorded: typeof globalThis.fetch = async (input, init) => {
    const { method, path } = describeInput(input, init);
    const start = performance.now() - origin;
    try {
      const response = await inner(input, init);
      requests.push({ method, path, start, end: performance.now() - origin, status: response.status });
      return response;
    } catch (err) {
      requests.push({ method, path, start, end: performance.now() - origin, status: 0 });
      throw err;
    }
  };
  return {
    fetch: recorded,
    requests,
    clear: () => {
      requests.length = 0;
    },
  };
}

/** A recorder fed by an in-process emulator's request log. */
export interface ServerRecorder {
  /** The emulator's `log` option. */
  log: (entry: RequestLogEntry) => void;
  requests: RecordedRequest[];
  /** Forgets what was recorded so far (between setup and measurement). */
  clear(): void;
}

/**
 * Records each request as the emulator answered it (from its arrival to its answer, the
 * emulator's latency included), so the client sends with its default sender (Node's
 * `http`/`https`, as the CLI's does) rather than through a wrapped `fetch`. On loopback the
 * client sees the same spans, less its own time to build a request and read the answer.
 */
export function createServerRecorder(): ServerRecorder {
  const origin = performance.now();
  const requests: RecordedRequest[] = [];
  return {
    log: (entry) => {
      const end = performance.now() - origin;
      requests.push({ method: entry.method, path: entry.path, start: end - entry.durationMs, end, status: entry.status === "reset" ? 0 : entry.status });
    },
    requests,
    clear: () => {
      requests.length = 0;
    },
  };
}

/**
 * The number of sequential request waves: the longest chain of requests where each one started
 * only after the previous one had ended. Requests in flight at the same time share a wave.
 */
export function sequentialWaves(requests: readonly RecordedRequest[]): number {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  let longest = 0;
  sorted.forEach((request, i) => {
    let d = 1;
    for (let j = 0; j < i; j++) {
      const earlier = sorted[j];
      if (earlier !== undefined && earlier.end <= request.start) d = Math.max(d, (depth[j] ?? 0) + 1);
    }
    depth.push(d);
    longest = Math.max(longest, d);
  });
  return longest;
}

/** Requests that change something (any method but GET and HEAD). */
export function mutationCount(requests: readonly RecordedRequest[]): number {
  return requests.filter((r) => r.method !== "GET" && r.method !== "HEAD").length;
}

/** Function deployments posted (`POST …/functions/{slug}/deployments`). */
export function deploymentCount(requests: readonly RecordedRequest[]): number {
  return requests.filter((r) => r.method === "POST" && /\/functions\/[^/]+\/deployments$/.test(r.path)).length;
}
