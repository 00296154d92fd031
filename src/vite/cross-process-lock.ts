/**
 * The cross-process lock of the Vite plugin: `<dotEnvFile>.svc-lock`,
 * created exclusively; others wait up to 60 s; a lock older than 5 minutes is stale and removed.
 */
import { open, rm, stat } from "node:fs/promises";

/** Timing of {@link withFileLock}. */
export interface FileLockTiming {
  /** @default 60000 */
  readonly waitMs?: number;
  /** @default 300000 */
  readonly staleMs?: number;
  /** @default 200 */
  readonly pollMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` while holding `lockPath`. Resolves `{ acquired: false }` without running it when
 * another process held the lock for the whole wait.
 */
export async function withFileLock<T>(lockPath: string, task: () => Promise<T>, timing: FileLockTiming = {}): Promise<{ acquired: true; value: T } | { acquired: false }> {
  const deadline = Date.now() + (timing.waitMs ?? 60_000);
  for (;;) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = Date.now() - ((await stat(lockPath).catch(() => null))?.mtimeMs ?? Date.now());
      if (age > (timing.staleMs ?? 300_000)) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() >= deadline) return { acquired: false };
      await sleep(timing.pollMs ?? 200);
    }
  }
  try {
    return { acquired: true, value: await task() };
  } finally {
    await rm(lockPath, { force: true });
  }
}
