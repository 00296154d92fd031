import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** What `postmaster.pid` says about a server (first line pid, eighth line status). */
export interface PostmasterInfo {
  readonly pid: number;
  readonly status: string;
}

/** Reads `<clusterDir>/postmaster.pid`; null when absent or unreadable. */
export async function readPostmasterPid(clusterDir: string): Promise<PostmasterInfo | null> {
  let text: string;
  try {
    text = await readFile(path.join(clusterDir, "postmaster.pid"), "utf8");
  } catch {
    return null;
  }
  const lines = text.split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, status: (lines[7] ?? "").trim() };
}

/**
 * Stops a server left behind by a killed run: a live pid in `postmaster.pid` whose command line
 * is our `postgres` binary with this cluster gets SIGINT and up to `timeoutMs` to exit.
 * Returns the pid it stopped, or null when there was nothing to stop. A live pid
 * that is some other program (pid reuse) is left alone.
 */
export async function stopStaleServer(
  clusterDir: string,
  postgresBinary: string,
  timeoutMs = 10_000,
): Promise<number | null> {
  const info = await readPostmasterPid(clusterDir);
  if (info === null || !isAlive(info.pid)) return null;
  const command = await commandLineOf(info.pid);
  if (command === null || !command.includes(path.basename(postgresBinary)) || !command.includes(clusterDir)) {
    return null;
  }
  process.kill(info.pid, "SIGINT");
  const deadline = Date.now() + timeoutMs;
  while (isAlive(info.pid)) {
    if (Date.now() > deadline) {
      throw new Error(`a leftover PostgreSQL server (pid ${info.pid}) on ${clusterDir} did not stop within ${timeoutMs} ms; stop it by hand`);
    }
    await sleep(50);
  }
  return info.pid;
}

/** Whether a process with this pid exists (EPERM counts: it exists, owned by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function commandLineOf(pid: number): Promise<string | null> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").join(" ");
  } catch {
    try {
      return (await run("ps", ["-o", "command=", "-p", String(pid)])).stdout.trim();
    } catch {
      return null;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
