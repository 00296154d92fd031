/**
 * The sweep's emulator in its own process (the built `svc emulator`), with the platform
 * costs, logging one JSON line per request on stderr so the bench can count requests, waves and
 * the in-flight peak of each measured phase from the server's side.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The built CLI launcher. */
export const SVC_BIN = fileURLToPath(new URL("../../bin/svc.js", import.meta.url));
/** Injected latency per request, and operation / build durations (the settings). */
export const SWEEP_COSTS = { latencyMs: 40, operationMs: 300, buildMs: 500 } as const;

/** One request as the emulator logged it (ms since the emulator started). */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number | "reset";
  start: number;
  end: number;
}

/** A running emulator process: its environment for the CLI and the requests logged so far. */
export interface EmulatorProcess {
  env: Record<string, string>;
  requests: LoggedRequest[];
  /** The CPU the emulator process has spent so far (user + system, ms); undefined where `/proc` cannot tell (not Linux). */
  cpuMs(): number | undefined;
  close(): Promise<void>;
}

/** User + system CPU of process `pid` from `/proc/<pid>/stat`, ms (Linux counts it in ticks of 10 ms). */
function procCpuMs(pid: number | undefined): number | undefined {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${String(pid)}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the emulator; resolves once it printed its five `SVC_*` lines. */
export function startEmulatorProcess(): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [
    SVC_BIN, "emulator", "--port", "0", "--latency", String(SWEEP_COSTS.latencyMs),
    "--timings", `op_sched=0,op_run=${SWEEP_COSTS.operationMs},deploy_pending=0,deploy_build=${SWEEP_COSTS.buildMs},domain_active=500`,
    "--postgres", "postgresql://bench@127.0.0.1:1/none", "--verbose", "--log-format", "json",
  ], { stdio: ["ignore", "pipe", "pipe"] });
  const requests: LoggedRequest[] = [];
  const env: Record<string, string> = {};
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    const e = JSON.parse(line) as { time: string; method: string; path: string; status: number | "reset"; durationMs: number };
    const end = Date.parse(e.time);
    requests.push({ method: e.method, path: e.path, status: e.status, start: end - e.durationMs, end });
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the emulator exited early (${String(code)})`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const eq = line.indexOf("=");
      if (!line.startsWith("SVC_") || eq < 0) return;
      env[line.slice(0, eq)] = line.slice(eq + 1);
      if (Object.keys(env).length === 5) {
        child.removeAllListeners("exit");
        resolve({
          env, requests,
          cpuMs: () => procCpuMs(child.pid),
          close: () => new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
        });
      }
    });
  });
}
