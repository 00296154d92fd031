import { Hono } from "hono";
import { createPostgresBackend, type PostgresBackend } from "../postgres/backend.js";
import { claimableApiRoutes } from "./api-routes.js";
import type { ClaimableEnv } from "./env.js";
import type { FaultSource } from "./fault-middleware.js";
import { claimPageRoutes, type ClaimAccounts } from "./claim-page-routes.js";
import type { RandomBytes } from "./ids.js";
import { createClaimableService, type ClaimableClock, type ClaimableService, type ClaimAdoption, type ClaimableState } from "./service.js";

export type { ClaimableEnv } from "./env.js";
export type { ClaimAccounts, ClaimPrincipal } from "./claim-page-routes.js";
export type { ClaimAdoption, ClaimableClock, ClaimableService, ClaimableState } from "./service.js";
export type { ClaimableRecord, ClaimableWireRecord, ClaimOwner, ClaimStatus } from "./record.js";

/** Options of {@link createInstantFeature}: the emulator's claimable-database settings. */
export interface InstantFeatureOptions {
  /** `"embedded"` (default) or the URL of an external server. */
  readonly postgres?: "embedded" | string;
  /** Emulator data directory (cluster in `DATA_DIR/pg`). */
  readonly dataDir?: string;
  /** Local direct and pooled ports. @default 0 */
  readonly pgPort?: number;
  readonly poolerPort?: number;
  /** The emulator's clock. */
  readonly clock: ClaimableClock;
  /** The emulator's instance id, written as each database's comment. */
  readonly instanceId: string;
  /** The emulator's URL, the origin of `claim_url`. */
  readonly origin: () => string;
  /** The emulator's log. */
  readonly log: (line: string) => void;
  /** The management keys, for the claim page. */
  readonly accounts: ClaimAccounts;
  /** Adopts a claimed project into the management store. */
  readonly adopt: (adoption: ClaimAdoption) => void | Promise<void>;
  /** `limits.claimableStorageBytes`. @default 104857600 */
  readonly storageLimitBytes?: number;
  /** `timings.claimTransferMs`. @default 1000 */
  readonly claimTransferMs?: number;
  /** Seeded randomness (`--id-seed`). @default crypto.randomBytes */
  readonly random?: RandomBytes;
  /** Project id of a new claimable database. */
  readonly newProjectId?: () => string;
  /** The emulator's latency and fault rules, applied to `/api/v1` too. */
  readonly faults?: FaultSource;
  /** Interval of the storage check. @default 30000 */
  readonly storageCheckIntervalMs?: number;
  /** Makes the records durable (the emulator's data dir) after the timed storage check. @default nothing */
  readonly persist?: () => Promise<void>;
  /** Resolves once every applied change is durable; reads wait for it. @default at once */
  readonly durable?: () => Promise<void>;
}

/** The claimable-database feature of a running emulator. */
export interface InstantFeature {
  /** `/api/v1/*` and `/claim/*`; mount with `app.route("/", feature.routes)`. */
  readonly routes: Hono<ClaimableEnv>;
  readonly service: ClaimableService;
  readonly backend: PostgresBackend;
  /** `emu.instant.checkStorage()`: the storage check now. */
  checkStorage(): Promise<void>;
  /** Applies due expiries and transfers (the emulator's idle timer may call it). */
  materialize(): Promise<void>;
  /**
   * Restores persisted records; with records present, or `reconcile` set (the data dir's cluster
   * exists, so databases may be left without a record), the server starts and reconciles.
   */
  restore(state: ClaimableState, options?: { reconcile?: boolean }): Promise<void>;
  /**
   * Stops timers, drops every database when `dropDatabases` (graceful stop without a data dir),
   * and stops the server. Idempotent.
   */
  close(options?: { dropDatabases?: boolean }): Promise<void>;
}

/**
 * Wires the claimable database API, the claim page, the PostgreSQL backend and the storage timer.
 * PostgreSQL starts lazily on the first create.
 */
export function createInstantFeature(options: InstantFeatureOptions): InstantFeature {
  const backend = createPostgresBackend({
    ...(options.postgres === undefined ? {} : { postgres: options.postgres }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.pgPort === undefined ? {} : { pgPort: options.pgPort }),
    ...(options.poolerPort === undefined ? {} : { poolerPort: options.poolerPort }),
    log: options.log,
  });
  const service = createClaimableService({
    backend,
    clock: options.clock,
    instanceId: options.instanceId,
    log: options.log,
    adopt: options.adopt,
    ...(options.random ? { random: options.random } : {}),
    ...(options.storageLimitBytes === undefined ? {} : { storageLimitBytes: options.storageLimitBytes }),
    ...(options.claimTransferMs === undefined ? {} : { claimTransferMs: options.claimTransferMs }),
    ...(options.newProjectId ? { newProjectId: options.newProjectId } : {}),
  });
  const routes = new Hono<ClaimableEnv>();
  const durable = options.durable ? { durable: options.durable } : {};
  routes.route("/", claimableApiRoutes({ service, origin: options.origin, log: options.log, ...(options.faults ? { faults: options.faults } : {}), ...durable }));
  routes.route("/", claimPageRoutes({ service, accounts: options.accounts, clock: options.clock, pgVersion: () => backend.info()?.majorVersion ?? 17, ...(options.random ? { random: options.random } : {}), ...durable }));
  const checkIfStarted = (): void => {
    if (backend.info() === null) return;
    service
      .checkStorage()
      .then(() => options.persist?.())
      .catch((err: unknown) => options.log(`error: claimable storage check failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  const timer = setInterval(checkIfStarted, options.storageCheckIntervalMs ?? 30_000);
  timer.unref();
  let closed: Promise<void> | null = null;
  return {
    routes,
    service,
    backend,
    checkStorage: () => service.checkStorage(),
    materialize: () => service.materialize(),
    async restore(state, restoreOptions = {}) {
      service.importState(state);
      if (state.records.length > 0 || restoreOptions.reconcile === true) await service.reconcile();
    },
    close(closeOptions = {}) {
      closed ??= (async () => {
        clearInterval(timer);
        if (closeOptions.dropDatabases && backend.info() !== null) await service.dropAll();
        await backend.stop();
      })();
      return closed;
    },
  };
}
