/**
 * Files written whole or not at all: through a temporary file created exclusively (never
 * following what is already there) and a rename, so a reader never sees half a file; a write that
 * fails removes its temporary file; a directory found missing is made and the write tried once
 * more. The system calls run in libuv's thread pool (the bundle cache's entries and staged
 * packages): creating a file is most of what an entry costs (the `open` call; 0.25 ms of system
 * time a file was measured on the benches' ext4 disk, more while other processes write), and a
 * cold first apply writes one per function while its main thread is the bundling's critical path. A process killed mid-write leaves at most the
 * temporary file, which no reader of the final name ever opens.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs";

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
          if (err === null) rename(temp, path, (renameErr) => (renameErr === null ? done(true) : failed()));
          else if (err.code === "ENOENT" && mayMakeDir) mkdir(dir, { recursive: true }, (mkdirErr) => (mkdirErr === null ? attempt(false) : failed()));
          else failed();
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
