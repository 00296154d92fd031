/**
 * The parent side of a function host: starts one child process that serves one bundled entry
 * module over HTTP, waits until it listens, relays its output and request records, and stops it.
 */
import { fork, type ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { escapeUnsafeText } from "../rules/visible-text.js";
import type { HostCommand, HostConfig, HostEvent, HostFailureReason, RequestRecord } from "./host-protocol.js";

/** The platform's memory per function instance, in MiB. */
export const PLATFORM_MEMORY_MB = 2048;

/** The platform's limit on the time to a response's first byte: 15 minutes. */
export const PLATFORM_FIRST_BYTE_TIMEOUT_MS = 15 * 60 * 1000;

/** Options of {@link startFunctionProcess}. */
export interface StartFunctionProcessOptions {
  /** Absolute path of the bundled entry module (`index.mjs` or `index.js`); must be a regular file. */
  entry: string;
  /** The port to listen on; 0 lets the system choose. @default 0 */
  port?: number;
  /** The address to listen on. @default "127.0.0.1" */
  host?: string;
  /**
   * The child's whole environment: exactly these variables, nothing inherited. Compose it with
   * `functionEnvironment` (the platform's variables, then the function's own).
   * @default {}
   */
  env?: Readonly<Record<string, string>>;
  /** Working directory of the child. @default the entry's directory */
  cwd?: string;
  /** The V8 heap cap (`--max-old-space-size`), in MiB. @default 2048, the platform's */
  memoryMb?: number;
  /** A throwing handler's 500 carries the stack in its body (`svc dev`); never on the platform. @default false */
  exposeStacks?: boolean;
  /** Stacks map back to the sources through the bundle's source maps (`--enable-source-maps`). @default true */
  sourceMaps?: boolean;
  /** WebSocket upgrades reach the module's upgrade handler; `false` answers them 501. @default true */
  upgrades?: boolean;
  /** A handler with no Response after this long gets a 504. @default 900000 (15 minutes, the platform's) */
  firstByteTimeoutMs?: number;
  /** Gives up when the child does not listen within this time. @default 30000 */
  startTimeoutMs?: number;
  /** Receives every finished request (method, path, status, ms, the handler's error). Exceptions are ignored. */
  onRequest?: (record: RequestRecord) => void;
  /** Receives each line the function prints, with its stream. Exceptions are ignored. */
  onOutput?: (line: string, stream: "stdout" | "stderr") => void;
}

/** How a host process ended. */
export interface FunctionProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when `stop()` ended it; false for a crash or `process.exit` in the function. */
  stopped: boolean;
}

/** A running function host. */
export interface FunctionProcess {
  /** `http://<host>:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /**
   * Stops accepting requests, lets those in flight finish for `graceMs`, then ends the process
   * (SIGKILL if it lingers). Idempotent; resolves once the process is gone.
   * @default graceMs 1000
   */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when the process ends, for whatever reason; never rejects. */
  readonly exited: Promise<FunctionProcessExit>;
}

/** Why a host could not start: its reason, and a message naming the entry or the port. */
export class FunctionHostError extends Error {
  readonly reason: HostFailureReason | "exited" | "start-timeout";
  constructor(reason: FunctionHostError["reason"], message: string) {
    super(message);
    this.name = "FunctionHostError";
    this.reason = reason;
  }
}

/** The child entry beside this file: TypeScript (through tsx) when running from the sources, JavaScript from `dist/`. */
function childEntry(): { file: string; loader: string[] } {
  const fromSource = import.meta.url.endsWith(".ts");
  const file = fileURLToPath(new URL(fromSource ? "./host-child.ts" : "./host-child.js", import.meta.url));
  const loader = fromSource ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];
  return { file, loader };
}

function safely<A extends unknown[]>(fn: ((...args: A) => void) | undefined, ...args: A): void {
  try {
    fn?.(...args);
  } catch {
    // A listener's failure must not break the host.
  }
}

/**
 * Starts a function host: a child process that imports `entry`, resolves its handler
 * (`default.fetch(request)`, else a default function), and serves it over HTTP. Resolves once it
 * listens. Rejects with a {@link FunctionHostError} when the entry is not a regular file, fails
 * to load, exports no handler ("no request handler found" naming the file and its exports), the
 * port is taken (`port-in-use`), or the child exits or stays silent first. The child exits as
 * soon as its parent goes away (its IPC channel closes), even after `kill -9` of the parent.
 */
export async function startFunctionProcess(options: StartFunctionProcessOptions): Promise<FunctionProcess> {
  const shown = escapeUnsafeText(options.entry);
  const info = await stat(options.entry).catch(() => null);
  if (info === null || !info.isFile()) throw new FunctionHostError("not-a-file", `the function's entry ${shown} is not a regular file`);
  const host = options.host ?? "127.0.0.1";
  const config: HostConfig = {
    entry: options.entry,
    port: options.port ?? 0,
    host,
    exposeStacks: options.exposeStacks === true,
    upgrades: options.upgrades !== false,
    firstByteTimeoutMs: options.firstByteTimeoutMs ?? PLATFORM_FIRST_BYTE_TIMEOUT_MS,
  };
  const { file, loader } = childEntry();
  const execArgv = [...loader, `--max-old-space-size=${options.memoryMb ?? PLATFORM_MEMORY_MB}`, ...(options.sourceMaps === false ? [] : ["--enable-source-maps"])];
  const child = fork(file, [JSON.stringify(config)], {
    cwd: options.cwd ?? dirname(options.entry),
    env: { ...options.env },
    execArgv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
  });
  for (const stream of ["stdout", "stderr"] as const) {
    const source = child[stream];
    if (source !== null) createInterface({ input: source, crlfDelay: Infinity }).on("line", (line) => safely(options.onOutput, line, stream));
  }
  let stopping = false;
  const exited = new Promise<FunctionProcessExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal, stopped: stopping }));
  });
  child.on("message", (event: HostEvent) => {
    if (event?.type === "request") safely(options.onRequest, event.record);
  });
  const port = await waitForReady(child, options.startTimeoutMs ?? 30_000, shown, config);
  let stopped: Promise<void> | undefined;
  const stop = (graceMs = 1000): Promise<void> => {
    stopped ??= (async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const command: HostCommand = { type: "stop", graceMs };
      if (child.connected) child.send(command);
      else child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), graceMs + 2000);
      await exited;
      clearTimeout(force);
    })();
    return stopped;
  };
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, port, pid: child.pid ?? 0, stop, exited };
}

function waitForReady(child: ChildProcess, timeoutMs: number, shown: string, config: HostConfig): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off("message", onMessage);
      fn();
    };
    const onMessage = (event: HostEvent): void => {
      if (event?.type === "ready") settle(() => resolve(event.port));
      else if (event?.type === "failed") settle(() => reject(new FunctionHostError(event.reason, event.message)));
    };
    const timer = setTimeout(() => {
      settle(() => reject(new FunctionHostError("start-timeout", `the function host for ${shown} did not listen within ${timeoutMs} ms`)));
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("message", onMessage);
    child.once("error", (err) => settle(() => reject(new FunctionHostError("exited", `the function host for ${shown} could not start: ${err.message}`))));
    // "close" comes after the IPC channel is drained, so a `failed` report sent just before exiting wins.
    child.once("close", (code, signal) => {
      settle(() => reject(new FunctionHostError("exited", `the function host for ${shown} exited before listening on port ${config.port} (${signal ?? `code ${code}`})`)));
    });
  });
}
