/**
 * Functions that run in the emulator, wired together: the front door (a port per function, custom
 * domains by `Host`), the runner (a child per function version), trigger deliveries, schedule
 * firing and storage triggers, and the invocation log. `sync()` brings the running parts in line
 * with the records after every change (listeners for live functions, schedule deadlines, stopping
 * versions that are no longer current); it also runs on a timer for changes no request makes
 * (expired branches, purged projects).
 */
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scheduledAtMinute, type TriggerInvocationData } from "../../rules/trigger-invocation.js";
import { DEPLOYMENT_MEMORY_MIB } from "../engine/deployments.js";
import { RuleError } from "../engine/rule-error.js";
import type { FaultEngine } from "../faults.js";
import type { EmulatorLimits } from "../runtime.js";
import type { BranchRec, FunctionRec, ProjectRec, TriggerRec } from "../store/records.js";
import type { ObjectCreatedEvent, World } from "../store/world.js";
import { Deliveries, type DeliveryOutcome } from "./deliveries.js";
import { deploymentEnvironment, type RealDatabaseUri } from "./environment.js";
import { FrontDoor } from "./front-door.js";
import { InvocationLog, type InvocationLogSink } from "./invocation-log.js";
import { LiveFunctions } from "./live-functions.js";
import { FunctionRunner, functionKeyOf, versionKeyOf } from "./runner.js";
import { ScheduleFiring } from "./schedules.js";

/** How functions run (`functions` option of the emulator). */
export interface FunctionsSettings {
  /** A function process with no request for this long is stopped. */
  idleMs: number;
  /** A function with no response after this long gets a 504; a trigger delivery counts it as failed. */
  timeoutMs: number;
  /** Invocation log lines: off, text or JSON lines on stderr, or a callback. */
  log: InvocationLogSink;
}

/** What the feature needs from the emulator. */
export interface FunctionsParts {
  world: () => World;
  faults: FaultEngine;
  limits: EmulatorLimits;
  settings: FunctionsSettings;
  /** Extracted archives go under `<dataDir>/functions` (else a temporary directory). */
  dataDir?: string;
  notice: (line: string) => void;
  track: (work: Promise<void>) => void;
}

/** Where the emulator listens, known once it does. */
export interface FunctionsAddress {
  /** The emulator's origin (`http://127.0.0.1:4010`). */
  origin: string;
  /** The IP address function ports listen on. */
  bindAddress: string;
  /** The host of function URLs. */
  urlHost: string;
  /** Connection URIs of real branch databases, when they are real. */
  realDatabaseUri?: RealDatabaseUri;
}

const TEMP_PREFIX = "svc-emulator-fn-";
const SYNC_INTERVAL_MS = 1000;

/** Removes the extraction directories of emulators that are gone (a `kill -9` leaves them behind). */
async function sweepStaleTempDirs(): Promise<void> {
  const root = tmpdir();
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^svc-emulator-fn-(\d+)-/.exec(name)?.[1] ?? "NaN");
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") continue;
    }
    const info = await stat(join(root, name)).catch(() => null);
    if (info?.isDirectory() === true && info.uid === process.getuid?.()) await rm(join(root, name), { recursive: true, force: true });
  }
}

/** Functions that run in the emulator. */
export class FunctionsFeature {
  readonly log: InvocationLog;
  private frontDoor: FrontDoor | undefined;
  private runner: FunctionRunner | undefined;
  private deliveries: Deliveries | undefined;
  private readonly schedules: ScheduleFiring;
  private readonly live = new LiveFunctions();
  private timer: NodeJS.Timeout | undefined;
  private root: string | undefined;
  private syncing: Promise<void> = Promise.resolve();
  /** The sync queued behind the running one, not started yet: every caller until it starts shares it. */
  private queued: Promise<void> | undefined;

  constructor(private readonly parts: FunctionsParts) {
    this.log = new InvocationLog(parts.settings.log);
    this.schedules = new ScheduleFiring((target) => this.deliveries?.enqueue(target), parts.notice);
  }

  /** Starts serving functions once the emulator listens at `address`. */
  async start(address: FunctionsAddress): Promise<void> {
    const { parts } = this;
    if (parts.dataDir !== undefined) {
      this.root = join(parts.dataDir, "functions");
      // Extracted archives are derived from the blobs: a restart extracts again.
      await rm(this.root, { recursive: true, force: true });
      await mkdir(this.root, { recursive: true, mode: 0o700 });
    } else {
      await sweepStaleTempDirs();
      this.root = await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
    }
    const world = parts.world;
    const runner = new FunctionRunner({
      root: this.root,
      archive: async (spec) => world().blobs.get(spec.zipSha256),
      environment: async (spec) => {
        const w = world();
        const project = w.projects.get(spec.projectId);
        const branch = project?.branches.get(spec.branchId);
        const deployment = branch?.functions.get(spec.slug)?.deployments.find((d) => d.id === spec.deploymentId);
        if (project === undefined || branch === undefined || deployment === undefined) throw new Error(`function ${spec.slug} is gone from branch ${spec.branchId}`);
        const ctx = { world: w, origin: address.origin, functionUrl: (p: ProjectRec, b: BranchRec, slug: string) => this.frontDoor?.urlOf(functionKeyOf({ projectId: p.id, branchId: b.id, slug })), ...(address.realDatabaseUri !== undefined ? { realDatabaseUri: address.realDatabaseUri } : {}) };
        return deploymentEnvironment(ctx, project, branch, spec.slug, deployment);
      },
      limits: { entries: parts.limits.zipEntries, unzippedBytes: parts.limits.unzippedBytes },
      idleMs: parts.settings.idleMs,
      timeoutMs: parts.settings.timeoutMs,
      memoryMb: DEPLOYMENT_MEMORY_MIB,
      // Children are internal: only the front door talks to them.
      host: "127.0.0.1",
      onOutput: (spec, line) => this.log.output(spec.branchId, spec.slug, line),
      onExit: (spec, description) => parts.notice(`function ${spec.slug} on branch ${spec.branchId} (deployment ${spec.deploymentId}) ${description}; it starts again on the next request`),
    });
    this.runner = runner;
    this.frontDoor = new FrontDoor({ host: address.bindAddress, urlHost: address.urlHost, world, runner, log: this.log, faults: parts.faults, timeoutMs: parts.settings.timeoutMs });
    this.deliveries = new Deliveries({ frontDoor: this.frontDoor, timeoutMs: parts.settings.timeoutMs, maxPending: 1000, retryDelayMs: 250, notice: parts.notice, track: parts.track });
    await this.sync();
    this.timer = setInterval(() => void this.sync().catch((err: unknown) => parts.notice(`error: functions could not follow the state: ${err instanceof Error ? err.message : String(err)}`)), SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Brings listeners, schedule deadlines and running versions in line with the records
   * (serialised). Resolves after a sync that started after this call: callers while one runs
   * share the next one, which reads the records as they all left them, instead of a full pass each.
   */
  sync(): Promise<void> {
    if (this.queued !== undefined) return this.queued;
    // It starts on the event loop's next check phase, so the mutations answered in one turn share it.
    const next = this.syncing.catch(() => undefined).then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => {
      this.queued = undefined;
      return this.syncOnce();
    });
    this.queued = next;
    this.syncing = next;
    return next;
  }

  private async syncOnce(): Promise<void> {
    const { frontDoor, runner } = this;
    if (frontDoor === undefined || runner === undefined) return;
    const world = this.parts.world();
    const live = this.live.of(world);
    this.schedules.sync(world);
    // The active versions as of this pass; with nothing running there is nothing to retire.
    const current = new Set<string>();
    if (runner.size > 0) {
      for (const [key, { fn }] of live) {
        const active = fn.deployments.findLast((d) => d.status === "completed");
        if (active !== undefined) current.add(`${key}#${active.id}`);
      }
    }
    await Promise.all([frontDoor.sync(live), runner.retire((spec) => current.has(versionKeyOf(spec)))]);
  }

  /** The invocation URL of a function: its own port, once the front door listens ("" before). */
  invocationUrl(project: ProjectRec, branch: BranchRec, fn: FunctionRec): string {
    return this.frontDoor?.urlOf(functionKeyOf({ projectId: project.id, branchId: branch.id, slug: fn.slug })) ?? "";
  }

  /** Fires the enabled storage triggers of the object's bucket whose prefix the key starts with. */
  objectCreated(event: ObjectCreatedEvent): void {
    const world = this.parts.world();
    const project = world.projects.get(event.projectId);
    const branch = project?.deletedAt === undefined ? project?.branches.get(event.branchId) : undefined;
    if (branch === undefined) return;
    for (const t of branch.triggers.values()) {
      if (t.type !== "storage_object_created" || !t.enabled || t.bucketName !== event.bucketName || !event.key.startsWith(t.prefix ?? "")) continue;
      this.deliveries?.enqueue({ projectId: event.projectId, branchId: event.branchId, trigger: { id: t.id, name: t.name, type: t.type, functionSlug: t.functionSlug, functionPath: t.functionPath }, data: { bucket_name: event.bucketName, object_key: event.key } });
    }
  }

  /**
   * Fires one trigger now and resolves with the outcome: a schedule for the current minute, a
   * storage trigger for `objectKey` in its bucket. A disabled trigger is refused (`conflict`).
   */
  fire(project: ProjectRec, branch: BranchRec, trigger: TriggerRec, objectKey: string | undefined): Promise<DeliveryOutcome> {
    if (!trigger.enabled) throw new RuleError("conflict", `trigger ${trigger.id} is disabled on branch ${branch.id}: disabled triggers never fire; enable it first`);
    if (this.deliveries === undefined) throw new RuleError("conflict", "the emulator is not serving functions yet");
    const world = this.parts.world();
    let data: TriggerInvocationData;
    if (trigger.type === "schedule") data = { scheduled_at: scheduledAtMinute(new Date(world.clock.now())) };
    else {
      if (objectKey === undefined) throw new RuleError("invalid", `trigger ${trigger.id} is a storage trigger: give the object_key to deliver`, { field: "object_key" });
      data = { bucket_name: trigger.bucketName ?? "", object_key: objectKey };
    }
    return this.deliveries.deliver({ projectId: project.id, branchId: branch.id, trigger: { id: trigger.id, name: trigger.name, type: trigger.type, functionSlug: trigger.functionSlug, functionPath: trigger.functionPath }, data });
  }

  /** Schedule runs a clock advance skipped. */
  skippedRuns(): ReturnType<ScheduleFiring["skippedRuns"]> {
    return this.schedules.skippedRuns();
  }

  /** How many function processes run now. */
  get processes(): number {
    return this.runner?.size ?? 0;
  }

  /** Serves a request of the main port addressed to a custom domain; false when it is not one. */
  claim(...args: Parameters<FrontDoor["claim"]>): boolean {
    return this.frontDoor?.claim(...args) ?? false;
  }

  /** Stops every process and listener and removes the extracted archives. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.syncing.catch(() => undefined);
    await Promise.all([this.frontDoor?.close(), this.runner?.close()]);
    if (this.root !== undefined) await rm(this.root, { recursive: true, force: true });
  }
}
