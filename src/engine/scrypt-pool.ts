/**
 * A pool of worker threads for the hardened fingerprint derivations: one worker
 * per available core, created on first use and kept unreferenced while idle so they never hold
 * the process open. Running scrypt in workers keeps libuv's small thread pool free for the file
 * reads of bundling and the network. The worker is inline source, so it runs the same from
 * `dist/` and from the TypeScript sources.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** scrypt cost of one hardened derivation: ~32 MiB and ~100 ms. */
export const SCRYPT_COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/** Bytes each derivation produces. */
export const SCRYPT_KEY_BYTES = 32;

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
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  job: Job | undefined;
}

const workers: PoolWorker[] = [];
const queue: Job[] = [];
let nextId = 0;

function onMessage(slot: PoolWorker, message: { id: number; key?: Uint8Array; error?: string }): void {
  const job = slot.job;
  slot.job = undefined;
  if (job !== undefined && job.id === message.id) {
    if (message.key !== undefined) job.resolve(Buffer.from(message.key));
    else job.reject(new Error(`scrypt failed: ${message.error ?? "unknown error"}`));
  }
  dispatch();
}

function spawn(): PoolWorker {
  const slot: PoolWorker = { worker: new Worker(WORKER_SOURCE, { eval: true }), job: undefined };
  slot.worker.on("message", (message: { id: number; key?: Uint8Array; error?: string }) => onMessage(slot, message));
  slot.worker.on("error", (err) => {
    const job = slot.job;
    workers.splice(workers.indexOf(slot), 1);
    job?.reject(err instanceof Error ? err : new Error(String(err)));
    dispatch();
  });
  slot.worker.unref(); // after the listeners: attaching one takes a reference again
  return slot;
}

/** Starts the workers now (they take tens of ms to boot), so the first derivation does not wait for them. */
export function warmScryptPool(): void {
  const size = Math.max(1, availableParallelism());
  while (workers.length < size) workers.push(spawn());
}

function dispatch(): void {
  for (const slot of workers) {
    if (slot.job !== undefined) continue;
    const job = queue.shift();
    if (job === undefined) break;
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, password: job.password, salt: job.salt, cost: SCRYPT_COST, bytes: SCRYPT_KEY_BYTES });
  }
  for (const slot of workers) if (slot.job === undefined) slot.worker.unref();
}

/** scrypt(password, salt) with {@link SCRYPT_COST} on the pool; {@link SCRYPT_KEY_BYTES} bytes. */
export function scryptOnPool(password: Uint8Array, salt: Uint8Array): Promise<Buffer> {
  warmScryptPool();
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, password, salt, resolve, reject });
    dispatch();
  });
}
