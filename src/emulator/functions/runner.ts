/**
 * The function processes of the emulator: one child per function version (a deployment of a
 * function on a branch), started on its first invocation with the shared function host, its
 * archive extracted into a fresh directory, its environment computed at start, its heap capped
 * at the platform's 2048 MiB. A child that crashed is started again on the next request; one
 * idle for `idleMs` is stopped; `retire` stops the versions that are no longer current (a
 * redeploy, a deleted function or branch). Children exit with the emulator, even on `kill -9`
 * (the host leaves when its IPC channel closes).
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { startFunctionProcess, type FunctionProcess, type RequestRecord } from "../../runtime/index.js";
import { checkStoredArchive, extractArchive, type ExtractLimits } from "./archive-files.js";

/** One function version: where it lives and what it runs. */
export interface VersionSpec {
  projectId: string;
  branchId: string;
  slug: string;
  deploymentId: number;
  /** SHA-256 of the deployment's archive. */
  zipSha256: string;
}

/** The key of a function (any version): `project/branch/slug`. */
export function functionKeyOf(spec: Pick<VersionSpec, "projectId" | "branchId" | "slug">): string {
  return `${spec.projectId}/${spec.branchId}/${spec.slug}`;
}

/** The key of a version: the function's key and the deployment id. */
export function versionKeyOf(spec: VersionSpec): string {
  return `${functionKeyOf(spec)}#${spec.deploymentId}`;
}

/** What the runner needs from the emulator. */
export interface RunnerOptions {
  /** Directory under which versions are extracted (one fresh subdirectory per start). */
  root: string;
  /** The archive of a version; undefined when its blob is gone. */
  archive: (spec: VersionSpec) => Promise<Uint8Array | undefined>;
  /** The environment of a version, computed when it starts. */
  environment: (spec: VersionSpec) => Promise<Record<string, string>>;
  limits: ExtractLimits;
  /** A child with no request for this long is stopped. */
  idleMs: number;
  /** A handler with no response after this long gets a 504 from its host. */
  timeoutMs: number;
  /** Heap cap of each child, MiB. */
  memoryMb: number;
  /** Address the children listen on. */
  host: string;
  /** A line the function printed. */
  onOutput: (spec: VersionSpec, line: string) => void;
  /** A child ended on its own (crash or `process.exit`); it starts again on the next request. */
  onExit: (spec: VersionSpec, description: string) => void;
}

/** A running version lent to one request: its URL, and `done()` when the request has finished. */
export interface Lease {
  url: string;
  /** The host's record of a finished request (its handler's error), matched by method and path; undefined if none comes soon. */
  record(method: string, path: string): Promise<RequestRecord | undefined>;
  done(): void;
}

/** How long to wait for the host's record of a request after its response ended. */
const RECORD_WAIT_MS = 200;
/** Records nobody waited for are kept this long (the record may arrive before the proxy sees the end). */
const RECORD_KEEP_MS = 1000;

/** Pairs the host's request records with the requests that wait for them (FIFO per method and path). */
class RecordMatcher {
  private readonly unclaimed: { record: RequestRecord; at: number }[] = [];
  private readonly waiting: { method: string; path: string; resolve: (r: RequestRecord | undefined) => void }[] = [];

  offer(record: RequestRecord): void {
    const i = this.waiting.findIndex((w) => w.method === record.method && w.path === record.path);
    if (i >= 0) {
      this.waiting.splice(i, 1)[0]?.resolve(record);
      return;
    }
    const now = Date.now();
    while (this.unclaimed.length > 0 && (now - (this.unclaimed[0]?.at ?? now) > RECORD_KEEP_MS || this.unclaimed.length >= 64)) this.unclaimed.shift();
    this.unclaimed.push({ record, at: now });
  }

  wait(method: string, path: string): Promise<RequestRecord | undefined> {
    const i = this.unclaimed.findIndex((u) => u.record.method === method && u.record.path === path);
    if (i >= 0) return Promise.resolve(this.unclaimed.splice(i, 1)[0]?.record);
    return new Promise((resolve) => {
      const entry = { method, path, resolve };
      this.waiting.push(entry);
      setTimeout(() => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(undefined);
      }, RECORD_WAIT_MS).unref();
    });
  }
}

interface Running {
  spec: VersionSpec;
  child: FunctionProcess;
  dir: string;
  inFlight: number;
  idle: NodeJS.Timeout | undefined;
  matcher: RecordMatcher;
  /** Retired (a redeploy, a delete) while leased: stops when its last lease is done. */
  retired: boolean;
  /** Being stopped: lends no more calls. */
  stopping: boolean;
}

/** The emulator's function processes. */
export class FunctionRunner {
  private readonly versions = new Map<string, Promise<Running>>();
  /** Retired versions still answering their leased calls, by their key. */
  private readonly draining = new Map<Running, string>();
  private closed = false;

  constructor(private readonly options: RunnerOptions) {}

  /** Lends the running child of `spec`, starting it first when needed. Rejects with why it cannot start. */
  async acquire(spec: VersionSpec): Promise<Lease> {
    if (this.closed) throw new Error("the emulator is stopping");
    const key = versionKeyOf(spec);
    let starting = this.versions.get(key);
    if (starting === undefined) {
      starting = this.start(spec);
      this.versions.set(key, starting);
      starting.catch(() => {
        if (this.versions.get(key) === starting) this.versions.delete(key);
      });
    }
    const running = await starting;
    // Stopped while this call waited for it to start (retired with nothing leased yet): a child of its own.
    if (running.stopping) {
      if (this.versions.get(key) === starting) this.versions.delete(key);
      return this.acquire(spec);
    }
    running.inFlight++;
    if (running.idle !== undefined) clearTimeout(running.idle);
    running.idle = undefined;
    let released = false;
    return {
      url: running.child.url,
      record: (method, path) => running.matcher.wait(method, path),
      done: () => {
        if (released) return;
        released = true;
        running.inFlight--;
        if (running.inFlight === 0 && running.retired) void this.stop(key, running);
        else if (running.inFlight === 0 && this.versions.get(key) !== undefined) {
          running.idle = setTimeout(() => void this.stop(key, running), this.options.idleMs);
          running.idle.unref();
        }
      },
    };
  }

  /**
   * Stops every version `keep` rejects (no longer the function's current deployment, or gone). A
   * version with calls leased out takes no new ones and stops when the last is done (at the latest
   * after the function timeout): the old process finishes what it is answering, including a call
   * whose child was still starting.
   */
  async retire(keep: (spec: VersionSpec) => boolean): Promise<void> {
    const doomed: Promise<void>[] = [];
    for (const [key, starting] of this.versions) {
      doomed.push(
        starting.then(
          (running) => {
            if (keep(running.spec)) return undefined;
            if (running.inFlight === 0 || this.closed) return this.stop(key, running);
            running.retired = true;
            this.draining.set(running, key);
            if (this.versions.get(key) === starting) this.versions.delete(key);
            // A call that streams without end does not keep it: a call has its first byte within the timeout.
            if (running.idle !== undefined) clearTimeout(running.idle);
            running.idle = setTimeout(() => void this.stop(key, running), this.options.timeoutMs);
            running.idle.unref();
            return undefined;
          },
          () => undefined,
        ),
      );
    }
    await Promise.all(doomed);
  }

  /** How many children run now. */
  get size(): number {
    return this.versions.size;
  }

  /** Stops every child and removes their directories. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.retire(() => false), ...[...this.draining].map(([running, key]) => this.stop(key, running))]);
  }

  private async start(spec: VersionSpec): Promise<Running> {
    const archive = await this.options.archive(spec);
    if (archive === undefined) throw new Error(`the archive of deployment ${spec.deploymentId} is missing from the emulator's blob store`);
    await checkStoredArchive(archive, spec.zipSha256, this.options.limits);
    // A fresh directory per start: a restarted child never sees files a crashed one wrote.
    const dir = join(this.options.root, randomBytes(12).toString("hex"));
    const entry = await extractArchive(archive, dir, this.options.limits);
    let child: FunctionProcess;
    const matcher = new RecordMatcher();
    try {
      child = await startFunctionProcess({
        entry,
        host: this.options.host,
        env: await this.options.environment(spec),
        memoryMb: this.options.memoryMb,
        exposeStacks: false,
        upgrades: false,
        firstByteTimeoutMs: this.options.timeoutMs,
        onRequest: (record) => matcher.offer(record),
        onOutput: (line) => this.options.onOutput(spec, line),
      });
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    const running: Running = { spec, child, dir, inFlight: 0, idle: undefined, matcher, retired: false, stopping: false };
    const key = versionKeyOf(spec);
    void child.exited.then(async (exit) => {
      if (exit.stopped) return;
      if (this.versions.get(key) !== undefined && (await this.versions.get(key)?.catch(() => undefined)) === running) this.versions.delete(key);
      if (running.idle !== undefined) clearTimeout(running.idle);
      await rm(dir, { recursive: true, force: true });
      this.options.onExit(spec, exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code}`);
    });
    return running;
  }

  private async stop(key: string, running: Running): Promise<void> {
    running.stopping = true;
    this.draining.delete(running);
    if ((await this.versions.get(key)?.catch(() => undefined)) === running) this.versions.delete(key);
    if (running.idle !== undefined) clearTimeout(running.idle);
    await running.child.stop(2000);
    await rm(running.dir, { recursive: true, force: true });
  }
}
