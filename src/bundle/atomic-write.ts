/**
 * Files written whole or not at all: through a temporary file created exclusively (never
 * following what is already there) and a rename, so a reader never sees half a file; a write that
 * fails removes its temporary file; a directory found missing is made and the write tried once
 * more. The system calls run in libuv's thread pool (the bundle cache's entries and staged
 * packages): creating a file is most of what an entry costs (the `open` call; 0.25 ms of system
 * time a file was measured on the benches' ext4 disk, more while other processes write), and a
 * cold first apply writes one per function while its main thread is the bundling's critical path. A process killed mid-write leaves at most the
 * temporary file, which no reader of the final name ever opens; a later process's first write into
 * the same directory removes such files once their writer is gone ({@link removeAbandonedTemporaries}).
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs";
import { lstat, readdir, rm as rmPromise } from "node:fs/promises";
import { join } from "node:path";

/**
 * Most thread-pool writes under way at once. A write holds a file descriptor from its open to its
 * close, and the thread pool runs every queued open before any queued write, so a cold run storing
 * one entry per function would otherwise hold one descriptor per function at once: past the
 * process's open-file limit (`ulimit -n`) the rest fail with EMFILE and stay uncached. Many more
 * than the pool's four threads: each step of a write waits for a turn of the main thread, and
 * while it finishes archives 16 under way fell behind (400 entries started at once under 0.6 ms
 * slices of work: the last ended at 125-264 ms against 116-138 ms for 64 or no bound).
 */
export const WRITES_UNDER_WAY = 64;
let underWay = 0;
const waitingWrites: (() => void)[] = [];

/** Runs `start` now when fewer than {@link WRITES_UNDER_WAY} writes are under way, else once one ends. */
function whenWriteSlotFree(start: () => void): void {
  if (underWay < WRITES_UNDER_WAY) {
    underWay += 1;
    start();
  } else waitingWrites.push(start);
}

/** Hands the slot of a write that ended to the next waiting write, or frees it. */
function releaseWriteSlot(): void {
  const next = waitingWrites.shift();
  if (next === undefined) underWay -= 1;
  else next();
}

/**
 * Writes `data` to `path` in `dir` (made when missing; see the module comment) through the thread
 * pool, with callbacks rather than promises: each step costs the calling thread one callback; at
 * most {@link WRITES_UNDER_WAY} at once, the others waiting in order.
 * Resolves `true` once the file is complete under its name, `false` when it was not written;
 * never rejects. `data` must not change until it resolves.
 */
export function writeAtomicInThreadPool(dir: string, path: string, data: Uint8Array): Promise<boolean> {
  return new Promise((resolve) =>
    whenWriteSlotFree(() => {
      const done = (written: boolean): void => {
        releaseWriteSlot();
        resolve(written);
      };
      const temp = temporaryName(path);
      const failed = (): void => rm(temp, { force: true }, () => done(false));
      const attempt = (mayMakeDir: boolean): void =>
        writeFile(temp, data, { flag: "wx" }, (err) => {
          if (err === null)
            rename(temp, path, (renameErr) => {
              if (renameErr !== null) return failed();
              sweepOnce(dir);
              done(true);
            });
          else if (err.code === "ENOENT" && mayMakeDir) {
            // This process makes the directory: nothing in it was left by another.
            swept.add(dir);
            mkdir(dir, { recursive: true }, (mkdirErr) => (mkdirErr === null ? attempt(false) : failed()));
          } else failed();
        });
      try {
        attempt(true);
      } catch {
        // A path Node refuses before any system call (a NUL byte): not written, and its turn goes on.
        done(false);
      }
    }),
  );
}

/** A name beside `path` that no other writer picks (this process's id and random bytes). */
function temporaryName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/** A name {@link temporaryName} makes; its first group is the writer's process id. */
const TEMPORARY_NAME = /^.+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * How long a temporary file must have been left unchanged before a later process removes it (its
 * writer also gone). A write takes milliseconds; the margin is for a writer this process cannot see
 * (another container sharing the directory, where process ids mean nothing here).
 */
export const ABANDONED_AFTER_MS = 10 * 60_000;

/** Directories this process has swept (or made: nothing to sweep), once each. */
const swept = new Set<string>();

/** Starts {@link removeAbandonedTemporaries} on `dir` the first time this process writes there. */
function sweepOnce(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  void removeAbandonedTemporaries(dir);
}

/**
 * Removes from `dir` the temporary files of writers that are gone: named as this module names them
 * (`<name>.<pid>.<8 hex>.tmp`), regular files (a link or a directory is left alone), with no live
 * process of that id on this host and unchanged for {@link ABANDONED_AFTER_MS}. Never one of this
 * process's own. Safe even against a writer still running: its rename of a removed temporary file
 * fails, so its entry is not stored; no partial file is ever renamed into place. Resolves to how
 * many were removed; never rejects.
 */
export async function removeAbandonedTemporaries(dir: string, now: number = Date.now()): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = Number(TEMPORARY_NAME.exec(name)?.[1] ?? Number.NaN);
    // 0 and negative ids would signal process groups: never asked about.
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processExists(pid)) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined || !info.isFile() || now - info.mtimeMs < ABANDONED_AFTER_MS) continue;
    if (await rmPromise(path).then(() => true, () => false)) removed += 1;
  }
  return removed;
}

/** Whether a process with this id exists here (one of another user's counts: EPERM). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
