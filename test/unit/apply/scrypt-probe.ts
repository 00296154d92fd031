/**
 * Child-process probe for the scrypt pool's hold test (run with `node --import tsx`): starts
 * derivations as the first argument says and prints each key it receives before the process ends.
 * Each mode starts once tsx's own file writes are done, so that what keeps the process alive is
 * the pool or the probe's own timer.
 * - `unheld`: one derivation nobody holds;
 * - `held`: one derivation, held;
 * - `held-behind-unheld`: one unheld derivation per core, started while a 50 ms timer keeps the
 *   process alive, then two held ones: the second waits in the queue while every slot is busy;
 * - `unheld-while-busy`: one unheld derivation per core and one more, started while a 50 ms timer
 *   keeps the process alive; the last one, queued, is printed as `queued`.
 */
import { availableParallelism } from "node:os";
import { startScrypt } from "../../../src/engine/scrypt-pool.js";

const mode = process.argv[2];
const cores = Math.max(1, availableParallelism());
const print = (label: string) => (key: Buffer) => process.stdout.write(`${label} ${key.toString("hex")}\n`);
const busyFor = (ms: number, then: () => void): void => void setTimeout(then, ms);

function run(): void {
  if (mode === "unheld") {
    startScrypt(Buffer.from("value"), Buffer.from("salt")).key.then(print("unheld"), () => undefined);
  } else if (mode === "held") {
    const d = startScrypt(Buffer.from("value"), Buffer.from("salt"));
    d.hold();
    d.key.then(print("held"), () => undefined);
  } else if (mode === "held-behind-unheld") {
    for (let i = 0; i < cores; i++) startScrypt(Buffer.from(`busy-${i}`), Buffer.from("salt")).key.catch(() => undefined);
    busyFor(50, () => {
      startScrypt(Buffer.from("first"), Buffer.from("salt")).hold();
      const d = startScrypt(Buffer.from("value"), Buffer.from("salt"));
      d.hold();
      d.key.then(print("held"), () => undefined);
    });
  } else if (mode === "unheld-while-busy") {
    for (let i = 0; i < cores; i++) startScrypt(Buffer.from(`busy-${i}`), Buffer.from("salt")).key.catch(() => undefined);
    startScrypt(Buffer.from("queued"), Buffer.from("salt")).key.then(print("queued"), () => undefined);
    busyFor(50, () => undefined);
  }
}

// tsx writes its cache after loading this file: wait until no file request is pending.
function whenIdle(): void {
  if (!process.getActiveResourcesInfo().some((type) => type.startsWith("FSReq"))) run();
  else setTimeout(whenIdle, 5);
}
setTimeout(whenIdle, 5);
