/**
 * A replica of the management API inside the calling process, for verifying a plan: the
 * emulator's core and routes (the same validation, rules and archive checks), answered through a
 * `fetch` function with no socket, no running functions and no claimable databases. It lives in
 * memory and is gone once nothing references it.
 */
import { EmulatorCore } from "./control.js";
import { resolveEmulatorOptions, type EmulatorOptions } from "./options.js";
import { InMemoryAnswer, answerInMemory } from "./replica-answer.js";
import { ReplicaHeaders } from "./replica-headers.js";
import { inMemoryRequest, replicaRequest } from "./replica-request.js";
import { RequestLog } from "./request-log.js";
import type { SeedDocument } from "./seed.js";
import { createEmulatorApp } from "./server.js";

/** One request as the platform client's sender hands it over: fully built, headers in lower case. */
export interface ReplicaExchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The caller's signal: checked before and after the replica answers. */
  signal?: AbortSignal;
}

/** An answer read to its end: the status, a header lookup and the body text. */
export interface ReplicaAnswer {
  status: number;
  header: (name: string) => string | null;
  text: string;
}

/** A replica: pass `apiHost` and `fetch` to `createPlatformApi`, or `send` as the client's sender. */
export interface Replica {
  /** The management API base its `fetch` answers (no host of this name is ever contacted). */
  readonly apiHost: string;
  /** Answers a request with the emulator's app in this process. */
  readonly fetch: typeof fetch;
  /**
   * Answers an exchange as `fetch` does (the same app, checks and answers), without building the
   * `fetch` call's options, its abort controller and its timer: the shape of the platform client's
   * sender (`api/http-exchange.ts`). Has no time limit, as `fetch` on a replica has none in effect:
   * the answer is computed in this process and an abort is seen before and after it.
   */
  readonly send: (exchange: ReplicaExchange) => Promise<ReplicaAnswer>;
  /** The seeded project. */
  readonly projectId: string;
  /**
   * Replaces everything the replica holds with a new seed (its key stays valid): what was applied
   * before is gone, as on a new replica, without building the routes again. The seed is a typed
   * document its caller built (a verification's, from what its plan read and checked), so it is
   * loaded without the seed schema's parse that `createReplica`'s seed and the emulator's
   * `--seed` go through.
   */
  reseed(seed: SeedDocument): Promise<void>;
}

/** Options of {@link createReplica}: the emulator's, without those that listen, persist or run processes. */
export type ReplicaOptions = Pick<EmulatorOptions, "seed" | "apiKey" | "timings">;

/** The host name of a replica's URLs: reserved, so a request that escaped would never resolve. */
const REPLICA_ORIGIN = "http://replica.invalid";

/**
 * A replica's request log: records nothing, since nothing reads a replica's requests and an idle
 * replica keeps none of a plan's paths. Notices still go to stderr.
 */
class UnrecordedRequestLog extends RequestLog {
  override get keeps(): boolean {
    return false;
  }

  override add(): void {
    // Nothing is kept.
  }
}

/** What every URL a replica answers starts with. */
const REPLICA_PREFIX = `${REPLICA_ORIGIN}/`;

/** Refuses a URL outside the replica's origin: nothing is ever sent elsewhere. */
function checkOrigin(url: string): void {
  if (!url.startsWith(REPLICA_PREFIX)) throw new TypeError(`a replica answers ${REPLICA_ORIGIN} only, not ${new URL(url).origin}`);
}

/** Builds a replica from a seed; invalid options throw an error naming the option. */
export function createReplica(options: ReplicaOptions): Replica {
  const core = new EmulatorCore(resolveEmulatorOptions({ ...options, log: "off" }));
  const app = createEmulatorApp({ rt: core, faults: core.faultEngine, log: new UnrecordedRequestLog(), mountAdmin: () => undefined, commit: () => core.commit(), answers: answerInMemory });
  const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    checkOrigin(url);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    const response = await app.fetch(input instanceof Request ? input : replicaRequest(url, init));
    // The answer is computed at once; an abort meanwhile still fails the call, as it would on a socket.
    signal?.throwIfAborted();
    return response instanceof InMemoryAnswer ? response.toResponse() : response;
  };
  const send = async (exchange: ReplicaExchange): Promise<ReplicaAnswer> => {
    checkOrigin(exchange.url);
    exchange.signal?.throwIfAborted();
    const response: Response | InMemoryAnswer = await app.fetch(inMemoryRequest(exchange.method, exchange.url, new ReplicaHeaders(exchange.headers), exchange.body ?? null));
    const text = response instanceof InMemoryAnswer ? (response.text ?? "") : await response.text();
    exchange.signal?.throwIfAborted();
    return { status: response.status, header: (name) => response.headers.get(name), text };
  };
  return {
    apiHost: `${REPLICA_ORIGIN}/api/v2`,
    fetch: answer as typeof fetch,
    send,
    get projectId() {
      return [...core.world.projects.keys()][0] ?? "";
    },
    reseed: (next) => core.resetTo(next),
  };
}
