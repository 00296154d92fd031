/**
 * Entry point of the forked supervisor process ("Process isolation"). It owns the
 * embedded PostgreSQL server: copies the binaries to a world-readable cache, stops a server left
 * by a killed run, initialises the cluster, starts the server on a Unix socket, and stops it on a
 * `stop` message or as soon as the IPC channel to the emulator disconnects (e.g. `kill -9`).
 * Its stdout is ignored by the emulator; diagnostics go to stderr, which feeds the emulator's log.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chown, mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ensureBinaryCache, locatePlatformPackage, type PostgresBinaries } from "./binaries.js";
import { isAlive, readPostmasterPid, stopStaleServer } from "./stale-server.js";
import type { SupervisorEvent, SupervisorRequest, SupervisorStartConfig } from "./supervisor-protocol.js";
import { ensureServerUser, isRoot, type ServerUser } from "./unix-user.js";

let server: ChildProcess | null = null;
let config: SupervisorStartConfig | null = null;
let stopping: Promise<void> | null = null;

function send(event: SupervisorEvent): void {
  if (process.connected && process.send) process.send(event);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function start(cfg: SupervisorStartConfig): Promise<void> {
  config = cfg;
  const binaries = await ensureBinaryCache(locatePlatformPackage(), cfg.cacheRoot);
  const user = isRoot() ? await ensureServerUser() : null;
  const stale = await stopStaleServer(cfg.clusterDir, binaries.postgres);
  if (stale !== null) send({ type: "warning", message: `stopped a PostgreSQL server left by a previous run (pid ${stale})` });
  await prepareDirectory(cfg.socketDir, user);
  if (!(await exists(path.join(cfg.clusterDir, "PG_VERSION")))) await initCluster(cfg, binaries, user);
  server = await startServer(cfg, binaries, user);
  send({ type: "ready", pid: server.pid ?? 0, binaryVersion: binaries.version });
}

async function prepareDirectory(dir: string, user: ServerUser | null): Promise<void> {
  await mkdir(path.dirname(dir), { recursive: true, mode: 0o755 });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (user) await chown(dir, user.uid, user.gid);
}

async function initCluster(cfg: SupervisorStartConfig, bin: PostgresBinaries, user: ServerUser | null): Promise<void> {
  await rm(cfg.clusterDir, { recursive: true, force: true });
  await prepareDirectory(cfg.clusterDir, user);
  const pwfile = path.join(path.dirname(cfg.clusterDir), `.pwfile-${randomBytes(6).toString("hex")}`);
  await writeFile(pwfile, `${cfg.superPassword}\n`, { mode: 0o600 });
  try {
    if (user) await chown(pwfile, user.uid, user.gid);
    const args = ["-D", cfg.clusterDir, "-U", cfg.superuser, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-instructions"];
    if (cfg.ephemeral) args.push("--no-sync");
    await runToCompletion(bin.initdb, args, bin, user, cfg.clusterDir);
  } finally {
    await rm(pwfile, { force: true });
  }
}

function spawnAs(file: string, args: string[], bin: PostgresBinaries, user: ServerUser | null, cwd: string): ChildProcess {
  return spawn(file, args, {
    cwd,
    env: { LD_LIBRARY_PATH: bin.libDir, DYLD_LIBRARY_PATH: bin.libDir, LANG: "C", LC_ALL: "C", PATH: process.env["PATH"] ?? "/usr/bin:/bin" },
    stdio: ["ignore", "ignore", "pipe"],
    // Own process group: a Ctrl-C in the emulator's terminal must not reach the server.
    detached: true,
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
}

function runToCompletion(file: string, args: string[], bin: PostgresBinaries, user: ServerUser | null, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnAs(file, args, bin, user, cwd);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} exited with code ${code}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`)),
    );
  });
}

function startServer(cfg: SupervisorStartConfig, bin: PostgresBinaries, user: ServerUser | null): Promise<ChildProcess> {
  const args = ["-D", cfg.clusterDir, "-k", cfg.socketDir, "-c", "listen_addresses=", "-c", "wal_level=logical", "-c", "max_connections=200", "-c", "log_min_messages=warning", "-c", "log_checkpoints=off"];
  if (cfg.ephemeral) args.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  const child = spawnAs(bin.postgres, args, bin, user, cfg.clusterDir);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    stderr = (stderr + text).slice(-4000);
    process.stderr.write(text.replace(/^(?=.)/gm, "postgres: "));
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    child.on("error", (err) => {
      settled = true;
      reject(err);
    });
    child.on("exit", (code, signal) => {
      if (!settled) {
        settled = true;
        reject(new Error(`postgres exited during start-up (${signal ?? `code ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
      } else if (!stopping) {
        send({ type: "failed", message: `postgres exited unexpectedly (${signal ?? `code ${code}`})` });
      }
    });
    const poll = async (): Promise<void> => {
      while (!settled) {
        const info = await readPostmasterPid(cfg.clusterDir);
        if (info && info.pid === child.pid && info.status === "ready") {
          settled = true;
          resolve(child);
          return;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    void poll();
  });
}

async function stop(): Promise<void> {
  stopping ??= (async () => {
    const proc = server;
    if (proc?.pid !== undefined && isAlive(proc.pid) && proc.exitCode === null) {
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      proc.kill("SIGINT");
      const timer = setTimeout(() => proc.kill("SIGQUIT"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    for (const dir of config?.removeOnStop ?? []) await rm(dir, { recursive: true, force: true });
  })();
  return stopping;
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

async function stopAndExit(): Promise<void> {
  try {
    await stop();
  } catch (err) {
    process.stderr.write(`supervisor: stopping postgres failed: ${messageOf(err)}\n`);
  }
  send({ type: "stopped" });
  process.exit(0);
}

process.on("message", (raw: SupervisorRequest) => {
  if (raw.type === "start") {
    start(raw.config).catch((err: unknown) => {
      send({ type: "failed", message: messageOf(err) });
      void stopAndExit();
    });
  } else if (raw.type === "stop") {
    void stopAndExit();
  }
});
process.on("disconnect", () => void stopAndExit());
// Once the emulator is gone its end of the stderr pipe is closed: a late log line must not crash
// the supervisor before it has stopped the server and removed a temporary cluster.
process.stderr.on("error", () => undefined);
// The emulator's terminal signals are its own: the supervisor stops only through IPC.
process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => void stopAndExit());
