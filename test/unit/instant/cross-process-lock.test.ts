import { existsSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withFileLock } from "../../../src/vite/cross-process-lock.js";

function lockPath(): string {
  return join(mkdtempSync(join(tmpdir(), "svc-lock-")), ".env.svc-lock");
}

describe("the plugin's cross-process lock", () => {
  it("runs the task while the lock file exists and removes it afterwards", async () => {
    const lock = lockPath();
    const result = await withFileLock(lock, async () => existsSync(lock));
    expect(result).toEqual({ acquired: true, value: true });
    expect(existsSync(lock)).toBe(false);
  });

  it("lets a second holder in only after the first is done", async () => {
    const lock = lockPath();
    const order: string[] = [];
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const first = withFileLock(lock, () => {
      started();
      return new Promise<void>((resolve) => (release = () => { order.push("first done"); resolve(); }));
    }, { pollMs: 5 });
    await firstStarted;
    const second = withFileLock(lock, async () => void order.push("second ran"), { pollMs: 5 });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first done", "second ran"]);
  });

  it("gives up when another holder keeps the lock for the whole wait", async () => {
    const lock = lockPath();
    writeFileSync(lock, "12345\n");
    expect(await withFileLock(lock, async () => "ran", { waitMs: 30, pollMs: 5 })).toEqual({ acquired: false });
    expect(existsSync(lock)).toBe(true);
  });

  it("removes a stale lock older than the stale age and proceeds", async () => {
    const lock = lockPath();
    writeFileSync(lock, "12345\n");
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, async () => "ran", { waitMs: 30, pollMs: 5 })).toEqual({ acquired: true, value: "ran" });
  });
});
