import { ErrorCode, PlatformError } from "../../errors/index.js";
import type { PostgresBackend } from "../postgres/backend.js";
import { cryptoRandom, isCanonicalUuid, newPassword, physicalName, uuidV7, type RandomBytes } from "./ids.js";
import type { ClaimableRecord, ClaimOwner, RecordUrls } from "./record.js";

/** 72 hours: the lifetime of an unclaimed database. */
export const CLAIMABLE_LIFETIME_MS = 72 * 60 * 60 * 1000;
/** 100 MB: the storage limit of an unclaimed database, in bytes. */
export const DEFAULT_CLAIMABLE_STORAGE_BYTES = 104_857_600;
/** Prefix of every physical name this feature creates. */
export const CLAIMABLE_PREFIX = "svc_claim_";

/** Time source: the emulator's injectable clock, epoch ms. */
export interface ClaimableClock {
  now(): number;
}

/** What the management side receives when a transfer completes, to adopt the project. */
export interface ClaimAdoption {
  readonly databaseId: string;
  readonly projectId: string;
  readonly projectName: string;
  readonly owner: ClaimOwner;
  /** Id of the signed-in principal (as given by the accounts adapter). */
  readonly principalId: string;
  readonly databaseName: string;
  readonly roleName: string;
  readonly password: string;
  readonly pgVersion: number;
  readonly createdAt: number;
  /** Where the database is reachable: direct host and port, pooled port, `sslmode`. */
  readonly local: { readonly directHost: string; readonly directPort: number; readonly pooledPort: number; readonly sslmode: string | null; readonly hosts: { readonly direct: string; readonly pooled: string } };
}

/** Options of {@link createClaimableService}. */
export interface ClaimableServiceOptions {
  readonly backend: PostgresBackend;
  readonly clock: ClaimableClock;
  /**
   * Written as each database's comment so leftovers can be told apart; must stay the same across
   * restarts on one data dir, or reconciliation treats the emulator's own databases as foreign.
   */
  readonly instanceId: string;
  /** @default crypto.randomBytes */
  readonly random?: RandomBytes;
  /** @default 104857600 */
  readonly storageLimitBytes?: number;
  /** How long a record stays CLAIMING. @default 1000 */
  readonly claimTransferMs?: number;
  /** The emulator's log. @default discard */
  readonly log?: (line: string) => void;
  /** Project id for a new record. @default `instant-<12 hex>` */
  readonly newProjectId?: () => string;
  /** Adopts the project into the management store when a transfer completes; a throw fails it. */
  readonly adopt?: (adoption: ClaimAdoption) => void | Promise<void>;
}

/** Input of {@link ClaimableService.create}. */
export interface CreateClaimableInput {
  /** A client-chosen id (canonical UUID); absent: a new UUID v7. */
  readonly id?: string;
  readonly ref: string;
  readonly logicalReplication: boolean;
}

/** The claimable-database engine: records, real databases, expiry, storage limit, transfers. */
export interface ClaimableService {
  /** Creates a database, or returns the live record of a client-chosen id unchanged (`created: false`). */
  create(input: CreateClaimableInput): Promise<{ record: ClaimableRecord; created: boolean }>;
  /** The live record, or null (unknown, malformed or expired id). */
  get(id: string): ClaimableRecord | null;
  /** Connection strings of an unclaimed record (null when the server is not running). */
  urls(record: ClaimableRecord): RecordUrls | null;
  /** Applies due transitions: expiries (database dropped) and completed transfers. */
  materialize(): Promise<void>;
  /** Reads each unclaimed database's size and makes those over the limit read-only. */
  checkStorage(): Promise<void>;
  /** UNCLAIMED → CLAIMING; throws when the record is not UNCLAIMED. */
  startTransfer(id: string, transfer: { owner: ClaimOwner; projectName: string; principalId: string }): ClaimableRecord;
  /** Every live record. */
  list(): ClaimableRecord[];
  /** Drops every database of this service (graceful stop without a data dir). */
  dropAll(): Promise<void>;
  /** Copies of every live record and the tombstoned ids, for persistence. */
  exportState(): ClaimableState;
  /** Replaces the records and tombstones with persisted ones (before the first request). */
  importState(state: ClaimableState): void;
  /**
   * Reconciles records with the server: databases of this instance without a
   * record are dropped; records without a database are removed with a warning; databases of
   * another instance are reported, never dropped. Starts the server.
   */
  reconcile(): Promise<void>;
}

/** The persisted part of the service. */
export interface ClaimableState {
  readonly records: readonly ClaimableRecord[];
  readonly tombstones: readonly string[];
}

/** Creates the service; nothing touches PostgreSQL until the first create. */
export function createClaimableService(options: ClaimableServiceOptions): ClaimableService {
  const random = options.random ?? cryptoRandom;
  const log = options.log ?? (() => undefined);
  const limit = options.storageLimitBytes ?? DEFAULT_CLAIMABLE_STORAGE_BYTES;
  const records = new Map<string, ClaimableRecord>();
  const tombstones = new Set<string>();
  const pending = new Map<string, Promise<ClaimableRecord>>();
  let queue: Promise<void> = Promise.resolve();
  const serial = (task: () => Promise<void>): Promise<void> => (queue = queue.then(task, task));

  const createNew = async (id: string, input: CreateClaimableInput): Promise<ClaimableRecord> => {
    const info = await options.backend.start();
    if (input.logicalReplication && info.walLevel !== "logical") {
      throw new PlatformError(ErrorCode.SERVER_ERROR, `logical replication needs wal_level=logical, but the server has wal_level=${info.walLevel}`);
    }
    const now = options.clock.now();
    const name = physicalName(id);
    const password = newPassword(random);
    await options.backend.createDatabase({ name, password, replication: input.logicalReplication, comment: options.instanceId });
    const record: ClaimableRecord = {
      id,
      status: "UNCLAIMED",
      svcProjectId: options.newProjectId?.() ?? `instant-${Buffer.from(random(6)).toString("hex")}`,
      physicalName: name,
      password,
      logicalReplication: input.logicalReplication,
      ref: input.ref,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + CLAIMABLE_LIFETIME_MS,
      readOnly: false,
      readOnlyReason: null,
      orgId: null,
      transfer: null,
      transferError: null,
    };
    records.set(id, record);
    return record;
  };

  const completeTransfer = async (record: ClaimableRecord): Promise<void> => {
    const transfer = record.transfer;
    if (!transfer) return;
    const now = options.clock.now();
    try {
      const info = await options.backend.start();
      await options.adopt?.({
        databaseId: record.id,
        projectId: record.svcProjectId,
        projectName: transfer.projectName,
        owner: transfer.owner,
        principalId: transfer.principalId,
        databaseName: record.physicalName,
        roleName: record.physicalName,
        password: record.password,
        pgVersion: info.majorVersion,
        createdAt: record.createdAt,
        local: { directHost: info.directHost, directPort: info.directPort, pooledPort: info.pooledPort, sslmode: info.sslmode, hosts: { ...info.hosts } },
      });
      if (record.readOnly) await options.backend.setReadOnly(record.physicalName, false);
      record.status = "CLAIMED";
      record.expiresAt = null;
      record.readOnly = false;
      record.readOnlyReason = null;
      record.orgId = transfer.owner.kind === "organization" ? transfer.owner.orgId : null;
      record.transferError = null;
    } catch (err) {
      record.status = "UNCLAIMED";
      record.transferError = `The transfer failed: ${err instanceof Error ? err.message : String(err)}`;
      log(`claimable database ${record.id}: transfer failed: ${record.transferError}`);
    }
    record.transfer = null;
    record.updatedAt = now;
  };

  const expire = async (record: ClaimableRecord): Promise<void> => {
    records.delete(record.id);
    tombstones.add(record.id);
    try {
      await options.backend.dropDatabase(record.physicalName);
    } catch (err) {
      log(`claimable database ${record.id} expired but dropping ${record.physicalName} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return {
    async create(input) {
      const id = input.id?.toLowerCase() ?? uuidV7(options.clock.now(), random);
      if (!isCanonicalUuid(id)) throw new PlatformError(ErrorCode.INVALID_OPTIONS, `database id "${id}" is not a canonical UUID`);
      await this.materialize();
      const live = records.get(id);
      if (live) return { record: live, created: false };
      if (tombstones.has(id)) throw new PlatformError(ErrorCode.CONFLICT, `database id ${id} belonged to an expired database; ids are never reused`);
      const inFlight = pending.get(id);
      if (inFlight) return { record: await inFlight, created: false };
      const creation = createNew(id, input).finally(() => pending.delete(id));
      pending.set(id, creation);
      return { record: await creation, created: true };
    },
    get: (id) => records.get(id.toLowerCase()) ?? null,
    urls(record) {
      if (options.backend.info() === null) return null;
      return options.backend.connectionUrls(record.physicalName, record.password);
    },
    materialize: () =>
      serial(async () => {
        const now = options.clock.now();
        const due = [...records.values()]
          .filter((r) => (r.status === "UNCLAIMED" && r.expiresAt !== null && r.expiresAt <= now) || (r.status === "CLAIMING" && r.transfer !== null && r.transfer.completesAt <= now))
          .sort((a, b) => dueAt(a) - dueAt(b));
        for (const record of due) {
          if (record.status === "CLAIMING") await completeTransfer(record);
          else await expire(record);
        }
      }),
    checkStorage: () =>
      serial(async () => {
        for (const record of [...records.values()]) {
          if (record.status !== "UNCLAIMED" || record.readOnly) continue;
          const size = await options.backend.databaseSize(record.physicalName);
          if (size <= limit) continue;
          await options.backend.setReadOnly(record.physicalName, true);
          record.readOnly = true;
          record.readOnlyReason = `storage limit exceeded: ${formatMb(size, 1)} MB used, limit ${formatMb(limit, 1).replace(/\.0$/, "")} MB`;
          record.updatedAt = options.clock.now();
          log(`claimable database ${record.id} is now read-only: ${record.readOnlyReason}`);
        }
      }),
    startTransfer(id, transfer) {
      const record = records.get(id.toLowerCase());
      if (!record) throw new PlatformError(ErrorCode.NOT_FOUND, `claimable database ${id} does not exist or has expired`);
      if (record.status !== "UNCLAIMED") throw new PlatformError(ErrorCode.CONFLICT, `claimable database ${id} is already ${record.status.toLowerCase()}`);
      const now = options.clock.now();
      if (record.expiresAt !== null && record.expiresAt <= now) throw new PlatformError(ErrorCode.NOT_FOUND, `claimable database ${id} has expired`);
      record.status = "CLAIMING";
      record.transfer = { completesAt: now + (options.claimTransferMs ?? 1000), ...transfer };
      record.transferError = null;
      record.updatedAt = now;
      return record;
    },
    list: () => [...records.values()],
    exportState: () => ({ records: [...records.values()].map((r) => structuredClone(r)), tombstones: [...tombstones] }),
    importState(state) {
      records.clear();
      tombstones.clear();
      for (const record of state.records) records.set(record.id, structuredClone(record));
      for (const id of state.tombstones) tombstones.add(id);
    },
    reconcile: () =>
      serial(async () => {
        await options.backend.start();
        const onServer = await options.backend.listDatabases(CLAIMABLE_PREFIX);
        const names = new Set(onServer.map((d) => d.name));
        const known = new Set([...records.values()].map((r) => r.physicalName));
        for (const db of onServer) {
          if (known.has(db.name)) continue;
          if (db.comment === options.instanceId) {
            log(`warning: dropping ${db.name}: a claimable database of this emulator without a record`);
            await options.backend.dropDatabase(db.name);
          } else {
            log(`warning: ${db.name} looks like a claimable database of another emulator instance (${db.comment ?? "no comment"}); it is left alone`);
          }
        }
        for (const record of [...records.values()]) {
          if (names.has(record.physicalName)) continue;
          records.delete(record.id);
          tombstones.add(record.id);
          log(`warning: claimable database ${record.id} has no database ${record.physicalName} on the server; its record was removed`);
        }
      }),
    dropAll: () =>
      serial(async () => {
        for (const record of [...records.values()]) {
          records.delete(record.id);
          await options.backend.dropDatabase(record.physicalName).catch((err: unknown) => log(`dropping ${record.physicalName} failed: ${String(err)}`));
        }
      }),
  };
}

function dueAt(record: ClaimableRecord): number {
  return record.status === "CLAIMING" ? (record.transfer?.completesAt ?? 0) : (record.expiresAt ?? 0);
}

/** Bytes in MB as the limit is written (1 MB = 1,048,576 bytes, so 104,857,600 bytes = 100 MB). */
function formatMb(bytes: number, digits: number): string {
  return (bytes / 1_048_576).toFixed(digits);
}
