import { execFile } from "node:child_process";
import { scryptSync } from "node:crypto";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { queuedDerivations, startScrypt } from "../../../src/engine/scrypt-pool.js";

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL("./scrypt-probe.ts", import.meta.url));
const WORKERS = Math.max(1, availableParallelism());

describe("the scrypt pool", () => {
  it("derives scrypt at the hardened cost: N = 2^15, r = 8, p = 1, 32 bytes", async () => {
    const derivation = startScrypt(Buffer.from("a value"), Buffer.from("a salt"));
    derivation.hold();
    const expected = scryptSync("a value", "a salt", 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    expect((await derivation.key).equals(expected)).toBe(true);
  });

  it("gives a free worker to a held derivation before the unheld ones queued ahead of it", async () => {
    const busy = Array.from({ length: WORKERS }, (_, i) => startScrypt(Buffer.from(`busy-${i}`), Buffer.from("salt")));
    for (const d of busy) d.hold();
    const unheld = startScrypt(Buffer.from("queued first"), Buffer.from("salt"));
    const held = startScrypt(Buffer.from("queued second"), Buffer.from("salt"));
    held.hold();
    await Promise.race(busy.map((d) => d.key)); // one worker is free: it took the held one
    expect(unheld.cancel()).toBe(true);
    await expect(unheld.key).rejects.toThrow(/cancelled/);
    await Promise.all([...busy.map((d) => d.key), held.key]);
    expect(queuedDerivations()).toBe(0);
  });

  it("cancels a derivation no worker has started and nobody holds, never a started or a held one", async () => {
    const busy = Array.from({ length: WORKERS }, (_, i) => startScrypt(Buffer.from(`busy-${i}`), Buffer.from("salt")));
    for (const d of busy) d.hold();
    const waiting = startScrypt(Buffer.from("waiting"), Buffer.from("salt"));
    const held = startScrypt(Buffer.from("held"), Buffer.from("salt"));
    held.hold();
    expect(queuedDerivations()).toBe(2);
    expect(busy.map((d) => d.cancel())).toEqual(busy.map(() => false));
    expect(held.cancel()).toBe(false);
    expect(waiting.cancel()).toBe(true);
    expect(waiting.cancel()).toBe(false);
    await expect(waiting.key).rejects.toThrow(/cancelled/);
    expect(queuedDerivations()).toBe(1);
    await Promise.all([...busy.map((d) => d.key), held.key]);
    expect(queuedDerivations()).toBe(0);
  });

  it.each([
    ["an unheld derivation does not keep the process alive", "unheld", ""],
    ["a held derivation keeps it alive until its key arrives", "held", "held"],
    ["a held derivation queued while every slot is busy keeps it alive too", "held-behind-unheld", "held"],
  ])("%s", async (_label, mode, printed) => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", PROBE, mode], { timeout: 60_000 });
    expect(stdout.trim().split(" ")[0]).toBe(printed);
  });

  it("lets an unheld derivation started while the process was busy hold it only until its call returns: one still queued then never starts", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", PROBE, "unheld-while-busy"], { timeout: 60_000 });
    const labels = stdout.trim().split("\n").map((line) => line.split(" ")[0]);
    expect(labels).not.toContain("queued");
  });
});
