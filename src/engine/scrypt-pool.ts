/**
 * Where the hardened fingerprint derivations run, one per core at most. scrypt is native code on a
 * thread of its own either way; this module picks the threads:
 * - libuv's thread pool (`crypto.scrypt`) first, at most {@link POOL_SLOTS} at once: it has no
 *   thread to boot (a worker costs tens of ms of CPU before its first derivation), and two of its
 *   threads stay free for the file reads of bundling and DNS lookups;
 * - worker threads for the cores beyond those slots, created when a derivation finds every slot
 *   busy and kept unreferenced while idle so they never hold the process open. The worker is
 *   inline source, so it runs the same from `dist/` and from the TypeScript sources.
 *
 * A derivation starts unheld: it may be started before anyone knows it is needed (while the
 * branch is read), and then it does not keep the process alive: an unheld one enters libuv's pool
 * only from an unreferenced timer while no other unheld one runs there, so a process with nothing
 * else to do ends once the calls already running return (as a worker's running call delays the
 * exit too). Whoever awaits it holds it first; a free slot takes a held derivation before an
 * unheld one.
 */
import { scrypt } from "node:crypto";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** scrypt cost of one hardened derivation: ~32 MiB and ~100 ms. */
export const SCRYPT_COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/** Bytes each derivation produces. */
export const SCRYPT_KEY_BYTES = 32;

/** The most threads libuv's pool has, whatever `UV_THREADPOOL_SIZE` asks. */
const LIBUV_MAX_THREADS = 1024;

/**
 * libuv's thread pool size as the process was started, read as libuv reads `UV_THREADPOOL_SIZE`
 * (C's `atoi`: leading digits, anything else 0; 0 means one thread; the value is unsigned, so a
 * negative one, like one past the maximum, means the maximum); libuv's 4 when it is not set. An
 * empty or non-numeric value is one thread, not four: reading it otherwise put both derivations
 * on the only thread, where the file reads wait behind them.
 */
function libuvPoolThreads(value: string | undefined = process.env.UV_THREADPOOL_SIZE): number {
  if (value === undefined) return 4;
  const parsed = Number.parseInt(value, 10);
  const size = Number.isNaN(parsed) ? 0 : parsed;
  if (size === 0) return 1;
  return size < 0 || size > LIBUV_MAX_THREADS ? LIBUV_MAX_THREADS : size;
}

const CORES = Math.max(1, availableParallelism());
/** Derivations that may run on libuv's pool at once: one per core, leaving two of its threads free. */
export const POOL_SLOTS = Math.min(CORES, Math.max(0, libuvPoolThreads() - 2));
/** Worker threads for the cores the pool's slots leave (at least one when the pool has none). */
const WORKER_SLOTS = Math.max(CORES - POOL_SLOTS, POOL_SLOTS === 0 ? 1 : 0);

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { scryptSync } = require("node:crypto");
parentPort.on("message", ({ id, password, salt, cost, bytes }) => {
  try {
    const key = scryptSync(Buffer.from(password), Buffer.from(salt), bytes, cost);
    parentPort.postMessage({ id, key });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

interface Job {
  id: number;
  password: Uint8Array;
  salt: Uint8Array;
  /** Someone awaits the key: the process stays alive until it is derived. */
  held: boolean;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

/** A place a derivation runs: one of libuv's pool slots, or a worker thread. */
interface Slot {
  worker: Worker | undefined;
  job: Job | undefined;
}

const poolSlots: Slot[] = Array.from({ length: POOL_SLOTS }, () => ({ worker: undefined, job: undefined }));
const workers: Slot[] = [];
const queue: Job[] = [];
let nextId = 0;
/** The unreferenced timer that lets unheld derivations into libuv's pool. */
let unheldTurn: NodeJS.Timeout | undefined;

function settle(job: Job, key: Uint8Array | undefined, error: string | undefined): void {
  if (key !== undefined) job.resolve(Buffer.from(key));
  else job.reject(new Error(`scrypt failed: ${error ?? "unknown error"}`));
}

function runOnPool(slot: Slot, job: Job): void {
  slot.job = job;
  const done = (err: Error | null, key?: Buffer): void => {
    slot.job = undefined;
    settle(job, err === null ? key : undefined, err?.message);
    dispatch(false);
  };
  try {
    scrypt(job.password, job.salt, SCRYPT_KEY_BYTES, SCRYPT_COST, done);
  } catch (err) {
    // Refused before it started (arguments): answered like a failed call, outside the dispatch that started it.
    queueMicrotask(() => done(err instanceof Error ? err : new Error(String(err))));
  }
}

function onMessage(slot: Slot, message: { id: number; key?: Uint8Array; error?: string }): void {
  const job = slot.job;
  slot.job = undefined;
  if (job !== undefined && job.id === message.id) settle(job, message.key, message.error);
  dispatch(false);
}

function spawn(): Slot {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const slot: Slot = { worker, job: undefined };
  worker.on("message", (message: { id: number; key?: Uint8Array; error?: string }) => onMessage(slot, message));
  worker.on("error", (err) => {
    const job = slot.job;
    workers.splice(workers.indexOf(slot), 1);
    job?.reject(err instanceof Error ? err : new Error(String(err)));
    dispatch(false);
  });
  worker.unref(); // after the listeners: attaching one takes a reference again
  return slot;
}

/**
 * Busy workers hold the process while any held job is running or queued (a queued one waits for
 * a busy slot, held or not); otherwise no worker holds it. A job on libuv's pool holds the process
 * until its call returns, whoever holds it.
 */
function refreshHolds(): void {
  const held = queue.some((job) => job.held) || [...poolSlots, ...workers].some((slot) => slot.job?.held === true);
  for (const slot of workers) {
    if (held && slot.job !== undefined) slot.worker?.ref();
    else slot.worker?.unref();
  }
}

/** The next job a free slot takes: the first held one, else (when `unheld` allows) the first one. */
function nextJob(unheld: boolean): Job | undefined {
  const held = queue.findIndex((job) => job.held);
  if (held >= 0) return queue.splice(held, 1)[0];
  return unheld ? queue.shift() : undefined;
}

/**
 * Hands queued jobs to free slots; workers take what the free pool slots leave. libuv's pool takes
 * held jobs at once, and unheld ones only when `unheldToPool` (the unreferenced timer fired, so
 * something keeps the process alive) and no unheld job of ours runs there (which may be all that
 * does): an idle process ends once the calls already running return.
 */
function dispatch(unheldToPool: boolean): void {
  const unheldRunning = poolSlots.some((slot) => slot.job?.held === false);
  const unheld = unheldToPool && !unheldRunning;
  for (const slot of poolSlots) {
    if (slot.job !== undefined) continue;
    const job = nextJob(unheld);
    if (job === undefined) break;
    runOnPool(slot, job);
  }
  const freePoolSlots = poolSlots.filter((slot) => slot.job === undefined).length;
  while (queue.length > freePoolSlots) {
    let slot = workers.find((w) => w.job === undefined);
    if (slot === undefined && workers.length < WORKER_SLOTS) {
      slot = spawn();
      workers.push(slot);
    }
    const job = slot === undefined ? undefined : nextJob(true);
    if (slot === undefined || job === undefined) break;
    slot.job = job;
    slot.worker?.postMessage({ id: job.id, password: job.password, salt: job.salt, cost: SCRYPT_COST, bytes: SCRYPT_KEY_BYTES });
  }
  // The call running re-dispatches when it returns.
  if (freePoolSlots > 0 && queue.length > 0 && !unheldRunning && unheldTurn === undefined) {
    unheldTurn = setTimeout(() => {
      unheldTurn = undefined;
      dispatch(true);
    }, 0);
    unheldTurn.unref();
  }
  refreshHolds();
}

/** Derivations waiting for a slot (a diagnostic: what a cancellation leaves). */
export function queuedDerivations(): number {
  return queue.length;
}

/** One derivation on the pool. */
export interface PoolDerivation {
  /** The derived key; rejects when scrypt fails or the derivation was cancelled. */
  readonly key: Promise<Buffer>;
  /** Keeps the process alive until the key is derived: call it before awaiting {@link key}. */
  hold(): void;
  /** Drops the derivation if no slot has started it and no one holds it; returns whether it was dropped. */
  cancel(): boolean;
}

/** Starts scrypt(password, salt) with {@link SCRYPT_COST} ({@link SCRYPT_KEY_BYTES} bytes), unheld. */
export function startScrypt(password: Uint8Array, salt: Uint8Array): PoolDerivation {
  const queued: Job = { id: nextId++, password, salt, held: false, resolve: () => undefined, reject: () => undefined };
  const key = new Promise<Buffer>((resolve, reject) => {
    queued.resolve = resolve;
    queued.reject = reject;
  });
  queue.push(queued);
  dispatch(false);
  return {
    key,
    hold() {
      if (queued.held) return;
      queued.held = true;
      dispatch(false);
    },
    cancel() {
      const at = queue.indexOf(queued);
      if (at < 0 || queued.held) return false;
      queue.splice(at, 1);
      queued.reject(new Error("scrypt cancelled before it started"));
      return true;
    },
  };
}
