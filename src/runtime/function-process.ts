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
import { SPARE_ARGUMENT, type HostCommand, type HostConfig, type HostEvent, type HostFailureReason, type RequestRecord } from "./host-protocol.js";

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
  /**
   * Booted hosts to take one from instead of starting Node.js now (a reload's fast path). Used
   * only when the spare's memory cap and source-map switch match and `env` agrees with the
   * spare's on every variable Node.js reads at start-up (`NODE_*`, `UV_*`).
   * @default none: a new process
   */
  spares?: SpareHosts;
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

/** How a host process starts: the same for a spare and the process it stands in for. */
interface HostLaunch {
  env: Readonly<Record<string, string>>;
  cwd: string;
  memoryMb: number;
  sourceMaps: boolean;
}

/**
 * Forks the child entry beside this file: TypeScript (through tsx) when running from the
 * sources, JavaScript from `dist/`. Its stdout and stderr are piped, its IPC channel is JSON.
 */
function forkHost(argument: string, launch: HostLaunch): ChildProcess {
  const fromSource = import.meta.url.endsWith(".ts");
  const file = fileURLToPath(new URL(fromSource ? "./host-child.ts" : "./host-child.js", import.meta.url));
  const loader = fromSource ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];
  const execArgv = [...loader, `--max-old-space-size=${launch.memoryMb}`, ...(launch.sourceMaps ? ["--enable-source-maps"] : [])];
  return fork(file, [argument], { cwd: launch.cwd, env: { ...launch.env }, execArgv, stdio: ["ignore", "pipe", "pipe", "ipc"], serialization: "json" });
}

/** Variables Node.js reads while it starts, which a spare cannot take on later. */
const STARTUP_VARIABLE = /^(?:NODE_|UV_)/;

function sameStartupVariables(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)].filter((name) => STARTUP_VARIABLE.test(name)));
  return [...names].every((name) => a[name] === b[name]);
}

/** Options of {@link SpareHosts}. */
export interface SpareHostsOptions {
  /** The environment spares start with (a host then replaces it with its function's). @default {} */
  env?: Readonly<Record<string, string>>;
  /** Working directory the spares start in. */
  cwd: string;
  /** @default 2048 */
  memoryMb?: number;
  /** @default true */
  sourceMaps?: boolean;
}

/**
 * One booted host process kept waiting for a module, so replacing a function (a reload) does not
 * wait for Node.js to start: `startFunctionProcess({ spares })` takes it and a new one boots in
 * the background. It exits with its parent like any host; `close()` ends it.
 */
export class SpareHosts {
  readonly #launch: HostLaunch;
  #spare: { child: ChildProcess; ready: boolean } | undefined;
  #closed = false;

  constructor(options: SpareHostsOptions) {
    this.#launch = { env: { ...options.env }, cwd: options.cwd, memoryMb: options.memoryMb ?? PLATFORM_MEMORY_MB, sourceMaps: options.sourceMaps !== false };
    this.#refill();
  }

  #refill(): void {
    if (this.#closed) return;
    const child = forkHost(SPARE_ARGUMENT, this.#launch);
    const spare = { child, ready: false };
    this.#spare = spare;
    child.on("message", (event: HostEvent) => {
      if (event?.type === "spare-ready") spare.ready = true;
    });
    child.once("exit", () => {
      if (this.#spare === spare) this.#spare = undefined;
    });
    child.once("error", () => undefined);
  }

  /** The booted spare for a host started like `launch`, or undefined (none ready, or it would differ). */
  take(launch: HostLaunch): ChildProcess | undefined {
    const spare = this.#spare;
    const own = this.#launch;
    if (spare === undefined || !spare.ready || launch.memoryMb !== own.memoryMb || launch.sourceMaps !== own.sourceMaps || !sameStartupVariables(launch.env, own.env)) return undefined;
    this.#spare = undefined;
    this.#refill();
    return spare.child;
  }

  /** The waiting spare's pid, once it has booted; undefined while none is ready. */
  get readyPid(): number | undefined {
    return this.#spare?.ready === true ? this.#spare.child.pid : undefined;
  }

  /** Ends the waiting spare; no new one boots. */
  close(): void {
    this.#closed = true;
    this.#spare?.child.kill("SIGKILL");
    this.#spare = undefined;
  }
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
  const launch: HostLaunch = { env: { ...options.env }, cwd: options.cwd ?? dirname(options.entry), memoryMb: options.memoryMb ?? PLATFORM_MEMORY_MB, sourceMaps: options.sourceMaps !== false };
  const spare = options.spares?.take(launch);
  const child = spare ?? forkHost(JSON.stringify(config), launch);
  if (spare !== undefined) {
    const configure: HostCommand = { type: "configure", config, env: { ...launch.env }, cwd: launch.cwd };
    spare.send(configure);
  }
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
