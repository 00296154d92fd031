/**
 * Child-process probe for the scrypt pool's hold test (run with `node --import tsx`): starts
 * derivations as the first argument says and prints each key it receives before the process ends.
 * - `unheld`: one derivation nobody holds;
 * - `held`: one derivation, held;
 * - `held-behind-unheld`: as many unheld derivations as there are workers, then two held ones:
 *   the second waits in the queue while every worker is busy.
 */
import { availableParallelism } from "node:os";
import { startScrypt } from "../../../src/engine/scrypt-pool.js";

const mode = process.argv[2];
const print = (label: string) => (key: Buffer) => process.stdout.write(`${label} ${key.toString("hex")}\n`);
if (mode === "unheld") {
  startScrypt(Buffer.from("value"), Buffer.from("salt")).key.then(print("unheld"), () => undefined);
} else if (mode === "held") {
  const d = startScrypt(Buffer.from("value"), Buffer.from("salt"));
  d.hold();
  d.key.then(print("held"), () => undefined);
} else if (mode === "held-behind-unheld") {
  for (let i = 0; i < Math.max(1, availableParallelism()); i++) startScrypt(Buffer.from(`busy-${i}`), Buffer.from("salt")).key.catch(() => undefined);
  startScrypt(Buffer.from("first"), Buffer.from("salt")).hold();
  const d = startScrypt(Buffer.from("value"), Buffer.from("salt"));
  d.hold();
  d.key.then(print("held"), () => undefined);
}
