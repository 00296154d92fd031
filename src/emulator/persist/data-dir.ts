/**
 * The data dir: `LOCK` (one emulator per directory), `bootstrap.env` (0600),
 * `state.json` (`{format, version, sha256, state}`, rewritten atomically: temp file, fsync, rename,
 * fsync of the directory) and `blobs/`. A corrupt or inconsistent `state.json` is reported,
 * never reset; a leftover `state.json.tmp` is an unacknowledged write and is removed.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { join } from "node:path";
import { ErrorCode, PlatformError } from "../../errors/index.js";

const FORMAT = "svc-emulator-state";
const VERSION = 1;

/** Why a data dir cannot be used: `locked` (exit 2) or `corrupt` (exit 3). */
export type DataDirProblem = "locked" | "corrupt";

/** The error of an unusable data dir; `details.reason` tells the CLI its exit code. */
export function dataDirError(dir: string, reason: DataDirProblem, message: string): PlatformError {
  return new PlatformError(ErrorCode.INVALID_OPTIONS, message, { details: { dataDir: dir, reason } });
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** An opened (locked) data dir. */
export class DataDir {
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  /** The newest write while it is queued or running. */
  private latest: Promise<void> | null = null;
  private released = false;

  private constructor(
    readonly dir: string,
    private readonly encode: () => unknown,
  ) {}

  /**
   * Creates the directory if needed, takes its lock (a stale lock of a dead process is taken
   * over) and removes a leftover temp file with a warning. `encode` snapshots the state to write.
   */
  static open(dir: string, encode: () => unknown, warn: (line: string) => void): DataDir {
    mkdirSync(join(dir, "blobs"), { recursive: true });
    const lock = join(dir, "LOCK");
    for (;;) {
      try {
        const fd = openSync(lock, "wx", 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const pid = Number.parseInt(readFileSync(lock, "utf8"), 10);
        if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
          throw dataDirError(dir, "locked", `data dir ${dir} is in use by another emulator (pid ${pid}); stop it, or choose another --data-dir`);
        }
        warn(`svc emulator: warning: taking over the stale lock of data dir ${dir} (process ${Number.isInteger(pid) ? pid : "unknown"} is gone)`);
        unlinkSync(lock);
      }
    }
    const tmp = join(dir, "state.json.tmp");
    if (existsSync(tmp)) {
      warn(`svc emulator: warning: removed ${tmp}, an unfinished write that was never acknowledged`);
      unlinkSync(tmp);
    }
    return new DataDir(dir, encode);
  }

  /** The saved state, or undefined for a fresh dir; a mismatch throws a `corrupt` error. */
  readState(): unknown {
    const path = join(this.dir, "state.json");
    if (!existsSync(path)) return undefined;
    const corrupt = (why: string): PlatformError =>
      dataDirError(this.dir, "corrupt", `data dir ${this.dir} is corrupt: state.json ${why}. Move the directory aside or restore a backup; the emulator never discards data.`);
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      throw corrupt("is not valid JSON");
    }
    if (typeof doc !== "object" || doc === null) throw corrupt("is not a state document");
    const d = doc as { format?: unknown; version?: unknown; sha256?: unknown; state?: unknown };
    if (d.format !== FORMAT) throw corrupt(`has format ${JSON.stringify(d.format)}, expected "${FORMAT}"`);
    if (d.version !== VERSION) throw corrupt(`has version ${JSON.stringify(d.version)}, this emulator reads version ${VERSION}`);
    if (d.state === undefined || d.sha256 !== sha256(JSON.stringify(d.state))) throw corrupt("fails its checksum");
    return d.state;
  }

  /** Throws a `corrupt` error naming the first blob the state references that is missing. */
  checkBlobs(names: Iterable<string>): void {
    for (const name of names) {
      if (!existsSync(join(this.dir, "blobs", name))) {
        throw dataDirError(this.dir, "corrupt", `data dir ${this.dir} is corrupt: blob ${name} referenced by state.json is missing. Move the directory aside or restore a backup; the emulator never discards data.`);
      }
    }
  }

  /** The `KEY=value` lines of `bootstrap.env`, if present. */
  readBootstrap(): Record<string, string> {
    const path = join(this.dir, "bootstrap.env");
    if (!existsSync(path)) return {};
    const out: Record<string, string> = {};
    for (const line of readFileSync(path, "utf8").split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
    }
    return out;
  }

  /** Writes `bootstrap.env` (mode 0600). */
  writeBootstrap(text: string): void {
    const path = join(this.dir, "bootstrap.env");
    writeFileSync(`${path}.tmp`, text, { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }

  /** Writes the current state synchronously (start-up). */
  writeNowSync(): void {
    const tmp = join(this.dir, "state.json.tmp");
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, this.serialize());
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(this.dir, "state.json"));
    this.syncDirSync();
  }

  /**
   * Makes every change applied so far durable. Calls that arrive while a write runs share the
   * next write; none resolves before a write that includes its change has completed.
   */
  commit(): Promise<void> {
    if (this.released) return Promise.resolve();
    if (this.queued !== null) return this.queued;
    const run = this.tail.then(() => {
      this.queued = null;
      return this.write();
    });
    this.queued = run;
    this.latest = run;
    this.tail = run.catch(() => undefined);
    void this.tail.then(() => {
      if (this.latest === run) this.latest = null;
    });
    return run;
  }

  /**
   * Resolves once no write is queued or running, so every change applied so far is on disk (or
   * its write failed). Reads wait for it: a change is visible only once it is durable.
   */
  async settled(): Promise<void> {
    while (this.latest !== null) await this.latest.catch(() => undefined);
  }

  /** Waits for pending writes, then releases the lock. */
  async release(): Promise<void> {
    if (this.released) return;
    await this.tail;
    this.released = true;
    try {
      unlinkSync(join(this.dir, "LOCK"));
    } catch {
      // Already gone: nothing to release.
    }
  }

  private serialize(): string {
    const state = this.encode();
    return JSON.stringify({ format: FORMAT, version: VERSION, sha256: sha256(JSON.stringify(state)), state });
  }

  private async write(): Promise<void> {
    const text = this.serialize();
    const tmp = join(this.dir, "state.json.tmp");
    const handle = await open(tmp, "w", 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, join(this.dir, "state.json"));
    const dirHandle = await open(this.dir, "r");
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }

  private syncDirSync(): void {
    const fd = openSync(this.dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
