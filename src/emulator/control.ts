/**
 * The emulator's core without HTTP: the world, its seed, the clock, faults and the request log,
 * and `EmulatorControl`, the in-process equivalent of the `/__emulator` routes.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, PlatformError } from "../errors/index.js";
import type { ClaimableState } from "./claimable/service.js";
import { createClock, type EmulatorClock } from "./engine/clock.js";
import { startSystemOperation } from "./engine/operations.js";
import { resumeWorld } from "./engine/resume.js";
import { DiskBlobStore, MemoryBlobStore, type BlobStore } from "./persist/blob-store.js";
import { decodeExtras, decodeWorld, encodeWorld, referencedBlobs } from "./persist/codec.js";
import { DataDir } from "./persist/data-dir.js";
import { createCryptoRandom, createSeededRandom, IdFactory } from "./engine/random.js";
import { FaultEngine, parseFaultPlan, type FaultRule, type InjectedFault } from "./faults.js";
import type { ResolvedEmulatorOptions } from "./options.js";
import { resolveSeed } from "./options.js";
import { RequestLog, type RequestLogEntry } from "./request-log.js";
import { writeStderrNow } from "./stderr-lines.js";
import type { EmulatorRuntime, EndpointHostSource, SchemaSource } from "./runtime.js";
import { EMPTY_SCHEMA } from "./engine/schema-diff.js";
import { platformEndpointHosts } from "./http/views.js";
import { defaultSeed, loadSeed, type SeedDocument } from "./seed.js";
import { buildStateDocument, type StateDocument } from "./state-document.js";
import type { OperationRec, ProjectRec } from "./store/records.js";
import { World } from "./store/world.js";

/** Fault controls of a running emulator. */
export interface FaultControl {
  /** Replaces the plan (a plan string, rules, or null for none), optionally with a new seed. */
  set(plan: string | FaultRule[] | null, seed?: number): void;
  /** Injects `rule` on the next matching request only. */
  once(rule: FaultRule): void;
  /** Every injection so far. */
  injected(): InjectedFault[];
  /** The active rules. */
  rules(): FaultRule[];
}

/** In-process control of a running emulator (no HTTP involved). */
export interface EmulatorControl {
  /** The state document; secrets redacted unless `secrets` is true. */
  snapshot(options?: { secrets?: boolean }): StateDocument;
  /**
   * Back to the seed (or a new seed or state document, or a path); the bootstrap key stays valid.
   * The new world is in place when the call returns; the promise resolves once the claimable and
   * real databases of the old one are dropped and, with a data dir, the state is written.
   */
  reset(seed?: SeedDocument | StateDocument | string): Promise<void>;
  /** The clock: `now()`, `advance(ms)`, `set(date)` (forward only). */
  readonly clock: EmulatorClock;
  readonly faults: FaultControl;
  /** Recent request log entries (ring of 1,000). */
  requests(limit?: number): RequestLogEntry[];
  /**
   * Resolves when no operation, deployment or domain activation is in progress (manual clock:
   * advances it), and background work has finished: database drops (a purged project's) and
   * trigger deliveries already queued (with their retries).
   */
  settle(options?: { timeoutMs?: number }): Promise<void>;
  /** Starts a system operation that holds the project lock for `ms`. */
  lockProject(projectId: string, ms: number, action?: string): OperationRec;
}

/**
 * The clock of a restarted emulator: a manual clock saved in the data dir resumes at its saved
 * time (never earlier than a start date given now); a caller-supplied source is used as given.
 */
function resumedClock(spec: ResolvedEmulatorOptions["clock"], saved: unknown): ResolvedEmulatorOptions["clock"] {
  const clock = (saved as { clock?: { mode?: unknown; now?: unknown } } | undefined)?.clock;
  if (clock?.mode !== "manual" || typeof clock.now !== "number") return spec;
  if (spec === "system" || spec === "manual") return new Date(clock.now);
  if (spec instanceof Date) return new Date(Math.max(spec.getTime(), clock.now));
  return spec;
}

/** What the seed printed: the bootstrap key, first project and its default branch. */
export interface SeedIdentity {
  apiKey: string;
  projectId: string;
  defaultBranchId: string;
}

/** The emulator core: owns the world and implements {@link EmulatorControl}. */
export class EmulatorCore implements EmulatorControl, EmulatorRuntime {
  readonly clock: EmulatorClock;
  readonly log: RequestLog;
  readonly faultEngine: FaultEngine;
  readonly faults: FaultControl;
  readonly limits: ResolvedEmulatorOptions["limits"];
  readonly identity: SeedIdentity;
  readonly legacyAuth: "serve" | "gone";
  /** Record-only branches have empty schemas; `realDatabases` replaces this with a reader of the real database. */
  schemaSource: SchemaSource = () => Promise.resolve(EMPTY_SCHEMA);
  /** The platform's host names; `realDatabases` replaces this with connectable ones. */
  endpointHosts: EndpointHostSource = (project, endpoint) => platformEndpointHosts(this.world, project, endpoint);
  /**
   * Written as the comment of every claimable database; kept in the data dir, so a restarted
   * emulator recognises its own databases.
   */
  readonly instanceId: string;
  /** Claimable records read from the data dir, to hand to the claimable feature at start. */
  readonly savedClaimable: ClaimableState | undefined;
  private claimableSource: (() => ClaimableState) | undefined;
  private readonly resetHooks: Array<(previous: World) => Promise<void>> = [];
  private readonly purgeListeners: Array<(project: ProjectRec) => Promise<void>> = [];
  private readonly worldHooks: Array<(world: World) => void> = [];
  private readonly background = new Set<Promise<void>>();
  private current: World;
  private readonly seed: SeedDocument;
  private readonly bootstrapKey: string;
  private readonly blobStore: BlobStore;
  /** The opened data dir, or undefined in memory mode. */
  private readonly dataDir: DataDir | undefined;

  constructor(private readonly options: ResolvedEmulatorOptions) {
    const encode = (): unknown => encodeWorld(this.current, this.clock, { instanceId: this.instanceId, claimable: this.claimableSource?.() ?? this.savedClaimable ?? { records: [], tombstones: [] } });
    this.dataDir = options.dataDir !== undefined ? DataDir.open(options.dataDir, encode, (line) => writeStderrNow(`${line}\n`)) : undefined;
    let saved: unknown;
    try {
      saved = this.dataDir?.readState();
    } catch (err) {
      void this.dataDir?.release();
      throw err;
    }
    const extras = decodeExtras(saved);
    this.instanceId = extras.instanceId ?? randomUUID();
    this.savedClaimable = extras.claimable;
    this.clock = createClock(resumedClock(options.clock, saved));
    this.log = new RequestLog(options.log);
    this.limits = options.limits;
    this.legacyAuth = options.legacyAuthAfterSunset;
    this.faultEngine = new FaultEngine(options.faults, options.faultSeed, options.latency);
    const engine = this.faultEngine;
    this.faults = {
      set: (plan, seed) => engine.set(typeof plan === "string" ? parseFaultPlan(plan) : plan, seed),
      once: (rule) => engine.addOnce(rule),
      injected: () => engine.injected(),
      rules: () => engine.rules(),
    };
    const keyIds = new IdFactory(options.idSeed !== undefined ? createSeededRandom(options.idSeed ^ 0x2545f491) : createCryptoRandom());
    const seedKey = options.seed?.users?.[0]?.api_keys?.[0]?.key;
    this.blobStore = options.dataDir !== undefined ? new DiskBlobStore(options.dataDir) : new MemoryBlobStore();
    try {
      const stored = this.dataDir?.readBootstrap() ?? {};
      this.bootstrapKey = options.apiKey ?? stored["SVC_API_KEY"] ?? seedKey ?? keyIds.apiKeyToken();
      this.seed = options.seed ?? defaultSeed(this.bootstrapKey);
      if (saved !== undefined && options.seed !== undefined) {
        writeStderrNow(`svc emulator: warning: data dir ${options.dataDir ?? ""} already holds a world, so the seed is not loaded; POST /__emulator/reset loads it\n`);
      }
      this.current = saved !== undefined ? this.restore(saved) : this.build(this.seed);
      if (saved === undefined) this.dataDir?.writeNowSync();
      const world = this.current;
      const first = [...world.projects.values()][0];
      const project = (stored["SVC_PROJECT_ID"] !== undefined ? world.projects.get(stored["SVC_PROJECT_ID"]) : undefined) ?? first;
      this.identity = { apiKey: this.bootstrapKey, projectId: project?.id ?? "", defaultBranchId: project ? (world.defaultBranch(project)?.id ?? "") : "" };
    } catch (err) {
      void this.dataDir?.release();
      throw err;
    }
  }

  /** The world routes act on. */
  get world(): World {
    return this.current;
  }

  /** Writes a notice on stderr through the request log. */
  notice(line: string): void {
    this.log.notice(line);
  }

  /** Fault hook for operation chains. */
  readonly shouldFailOperation = (action: string): boolean => this.faultEngine.shouldFailOperation(action);

  private newWorld(): World {
    const random = this.options.idSeed !== undefined ? createSeededRandom(this.options.idSeed) : createCryptoRandom();
    const world = new World(this.clock, this.options.timings, random);
    world.blobs = this.blobStore;
    world.onProjectPurged = (project) => {
      for (const listener of this.purgeListeners) this.inBackground(listener(project));
    };
    for (const configure of this.worldHooks) configure(world);
    return world;
  }

  /** A world read back from the data dir: records, counters and clock, then its deadlines resumed. */
  private restore(saved: unknown): World {
    const world = this.newWorld();
    decodeWorld(world, saved);
    this.dataDir?.checkBlobs(referencedBlobs(world));
    this.ensureBootstrapKey(world);
    resumeWorld(world);
    return world;
  }

  private build(seed: SeedDocument): World {
    const world = this.newWorld();
    loadSeed(world, seed);
    this.ensureBootstrapKey(world);
    return world;
  }

  private ensureBootstrapKey(world: World): void {
    if (world.authenticate(this.bootstrapKey) === null) {
      const user = [...world.users.values()][0];
      if (user === undefined) throw new PlatformError(ErrorCode.INVALID_OPTIONS, "invalid emulator seed: users: the seed needs at least one user to own the bootstrap key");
      world.addKey(this.bootstrapKey, { name: "bootstrap", kind: "personal", accountId: user.id, createdBy: user.id, admin: true, createdAt: this.clock.now() });
    } else {
      const principal = world.authenticate(this.bootstrapKey);
      if (principal !== null) principal.key.admin = true;
    }
  }

  /** Makes the claimable records part of every write of the data dir. */
  attachClaimable(exportState: () => ClaimableState): void {
    this.claimableSource = exportState;
  }

  /** Runs `hook` with the replaced world on every reset, before the reset state is written. */
  onReset(hook: (previous: World) => Promise<void>): void {
    this.resetHooks.push(hook);
  }

  /** Runs `listener` after a project was purged; `settle()` waits for it. */
  onProjectPurged(listener: (project: ProjectRec) => Promise<void>): void {
    this.purgeListeners.push(listener);
  }

  /** Applies `configure` to the current world and to every world a reset builds (hooks such as `onObjectCreated`). */
  configureWorlds(configure: (world: World) => void): void {
    this.worldHooks.push(configure);
    configure(this.current);
  }

  /** Tracks background work (trigger deliveries, database drops) for `settle()`; a failure is reported on stderr. */
  track(work: Promise<void>): void {
    this.inBackground(work);
  }

  /** Resolves once the background work (trigger deliveries, database drops) has finished, including work it started. */
  async drain(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  private inBackground(work: Promise<void>): void {
    const tracked = work.catch((err: unknown) => this.log.notice(`error: ${err instanceof Error ? err.message : String(err)}`)).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  /** Makes every change applied so far durable (data dir), before a 2xx is sent. */
  commit(): Promise<void> {
    return this.dataDir?.commit() ?? Promise.resolve();
  }

  /**
   * Resolves once every change applied so far is durable; reads wait for it so that they never
   * see a change before its write completed. At once in memory mode.
   */
  durable(): Promise<void> {
    return this.dataDir?.settled() ?? Promise.resolve();
  }

  /** Writes `bootstrap.env` (0600) with the printed lines, so a restart can print them again. */
  saveBootstrap(lines: string): void {
    this.dataDir?.writeBootstrap(lines);
  }

  /** Finishes pending writes and releases the data-dir lock. */
  async closeDataDir(): Promise<void> {
    await this.dataDir?.release();
  }

  snapshot(options: { secrets?: boolean } = {}): StateDocument {
    return buildStateDocument(this.current, options.secrets === true);
  }

  async reset(seed?: SeedDocument | StateDocument | string): Promise<void> {
    await this.resetTo(seed === undefined ? this.seed : resolveSeed(seed));
  }

  /**
   * {@link reset} to a seed document that is already in the parsed shape (built in this process
   * from data that was checked where it came from, as a replica's seed is from a plan's reads):
   * loaded without parsing it again.
   */
  async resetTo(seed: SeedDocument): Promise<void> {
    const previous = this.current;
    const next = this.build(seed);
    previous.scheduler.clear();
    this.current = next;
    for (const hook of this.resetHooks) {
      await hook(previous).catch((err: unknown) => this.log.notice(`error: a reset could not drop the databases of the previous state: ${err instanceof Error ? err.message : String(err)}`));
    }
    await this.commit().catch((err: unknown) => this.log.notice(`error: could not write the reset state to the data dir: ${(err as Error).message}`));
  }

  requests(limit?: number): RequestLogEntry[] {
    return this.log.recent(limit);
  }

  async settle(options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.current.now();
      const scheduler = this.current.scheduler;
      if (!scheduler.busy) {
        if (this.background.size === 0) return;
        await this.drain();
        continue;
      }
      const next = scheduler.nextBusyAt();
      if (this.clock.mode === "manual" && next !== undefined) {
        this.clock.set(Math.max(next, this.clock.now()));
        continue;
      }
      if (Date.now() > deadline) {
        throw new PlatformError(ErrorCode.TIMEOUT, `the emulator did not settle within ${timeoutMs} ms: operations, deployments or domain activations are still in progress (custom clocks must be advanced by the caller)`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(10, Math.max(1, (next ?? 0) - this.clock.now()))));
    }
  }

  lockProject(projectId: string, ms: number, action = "check_availability"): OperationRec {
    const project = this.current.projects.get(projectId);
    if (project === undefined) throw new PlatformError(ErrorCode.NOT_FOUND, `lockProject: project ${projectId} not found in the emulator`);
    return startSystemOperation(this.current, project, action, ms);
  }
}
