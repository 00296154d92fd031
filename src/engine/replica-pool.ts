/**
 * The replicas a run verifies on (the emulator's routes answered in this process, loaded lazily):
 * one for single plans, shared by the process's plans, and a few for a fleet, each reseeded from
 * branch to branch instead of built again, so verifications build the emulator's routes a few
 * times, not once per plan or branch.
 */
import { randomBytes } from "node:crypto";
import pLimit from "p-limit";
import type { HttpSend } from "../api/http-exchange.js";
import type { ReplicaSeed } from "../api/wire/replica-seed.js";

/** A replica as the verifier uses it (the shape of `emulator/replica.ts`'s, which loads lazily). */
export interface PooledReplica {
  /** The management API base its `fetch` answers. */
  readonly apiHost: string;
  /** Answers a request in this process. */
  readonly fetch: typeof fetch;
  /** Answers an exchange in this process as `fetch` does: the platform client's sender (no `fetch` options, no timer). */
  readonly send: HttpSend;
  /** Replaces everything the replica holds with `seed` (not parsed again: it is built from what the plan read). */
  readonly reseed: (seed: ReplicaSeed) => Promise<void>;
}

/** The emulator's replica module, imported on the process's first verification (an import resolves the path again). */
let replicaModule: Promise<typeof import("../emulator/replica.js")> | undefined;

function loadReplicaModule(): Promise<typeof import("../emulator/replica.js")> {
  if (replicaModule === undefined) replicaModule = import("../emulator/replica.js");
  return replicaModule;
}

/** Replica timings: operations and builds end at once. */
const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };

/** A replica, the key its seeds carry, and whether it still holds the seed it was built with. */
interface Held {
  replica: PooledReplica;
  apiKey: string;
  fresh: boolean;
}

/** A replica's seed between verifications: its key and nothing else, so an idle replica holds none of a plan's state or archives. */
function idleSeed(apiKey: string): ReplicaSeed {
  return { version: 1, users: [{ email: "replica@svc-config.invalid", plan: "scale", api_keys: [{ name: "replica", key: apiKey, admin: true }] }], regions: [], projects: [] };
}

/**
 * At most `size` replicas, each used by one verification at a time; a verification waits for a
 * free one. Verifying is work in this process (the replica never waits on a network), so a few
 * replicas keep it busy and more would only hold more memory. With `emptyWhenIdle`, a replica is
 * reseeded empty after each verification (for a pool that outlives its run), or dropped when that fails.
 */
export class ReplicaPool {
  private readonly idle: Held[] = [];
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly emptyWhenIdle: boolean;
  /** A replica {@link warm} is building (holding its key alone); the next verification takes it. */
  private warming: Promise<Held | undefined> | undefined;
  /** Replicas built so far: {@link warm} builds only the first. */
  private built = 0;

  constructor(size: number, options: { emptyWhenIdle?: boolean } = {}) {
    this.limit = pLimit(size);
    this.emptyWhenIdle = options.emptyWhenIdle ?? false;
  }

  /**
   * Starts building the pool's first replica, holding its key alone, so its modules load while a
   * plan waits on the platform instead of after it. Nothing once the pool has built one; a replica
   * that cannot be built is left to the verification, which reports why.
   */
  warm(): void {
    if (this.built > 0) return;
    this.warming = this.create(idleSeed).then((held) => ({ ...held, fresh: false }), () => undefined);
  }

  /** Runs `verify` on a replica seeded with `seedFor(key)`, the key the replica's seed must carry. */
  use<T>(seedFor: (apiKey: string) => ReplicaSeed, verify: (replica: PooledReplica, apiKey: string) => Promise<T>): Promise<T> {
    return this.limit(async () => {
      const warming = this.warming;
      this.warming = undefined;
      const warmed = warming === undefined ? undefined : await warming;
      const held = warmed ?? this.idle.pop() ?? (await this.create(seedFor));
      try {
        if (held.fresh) held.fresh = false;
        else await held.replica.reseed(seedFor(held.apiKey));
        return await verify(held.replica, held.apiKey);
      } finally {
        // A replica that cannot be emptied is dropped, not kept with a plan's state; the verification's outcome stands.
        if (!this.emptyWhenIdle) this.idle.push(held);
        else await held.replica.reseed(idleSeed(held.apiKey)).then(() => this.idle.push(held), () => undefined);
      }
    });
  }

  private async create(seedFor: (apiKey: string) => ReplicaSeed): Promise<Held> {
    this.built += 1;
    const apiKey = `svc_replica_${randomBytes(16).toString("hex")}`;
    const { createReplica } = await loadReplicaModule();
    return { replica: createReplica({ seed: seedFor(apiKey), apiKey, timings: INSTANT }), apiKey, fresh: true };
  }
}
