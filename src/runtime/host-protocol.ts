/**
 * What the parent and the host child say to each other. The child's configuration travels as
 * one JSON argument (no secrets: paths, a port, switches); the function's environment is the
 * child's real environment; events travel over the IPC channel.
 */

/** The host child's configuration (its one command-line argument, as JSON). */
export interface HostConfig {
  /** Absolute path of the bundled entry module. */
  entry: string;
  /** Port to listen on; 0 lets the system choose. */
  port: number;
  /** Address to listen on. */
  host: string;
  /** Whether a 500 caused by a throwing handler carries the stack in its body. */
  exposeStacks: boolean;
  /** Whether WebSocket upgrades reach the module's upgrade handler (else 501). */
  upgrades: boolean;
  /** A request whose handler has not produced a Response after this long gets a 504. */
  firstByteTimeoutMs: number;
}

/** One finished request, as the child reports it. */
export interface RequestRecord {
  method: string;
  /** The path and query the caller used, as received. */
  path: string;
  /** The status sent; 0 when the connection closed before any was sent. */
  status: number;
  /** Milliseconds from the request's arrival to the end of the response. */
  ms: number;
  /** The handler's error (its stack, source-mapped when source maps are on), when it threw. */
  error?: string;
  /** The host answered 504 itself: the handler produced no Response within the first-byte timeout. */
  timedOut?: true;
}

/** Why a child could not start serving. */
export type HostFailureReason = "not-a-file" | "load-failed" | "no-handler" | "port-in-use" | "listen-failed";

/** Child → parent. */
export type HostEvent =
  | { type: "spare-ready" }
  | { type: "ready"; port: number }
  | { type: "failed"; reason: HostFailureReason; message: string }
  | { type: "request"; record: RequestRecord };

/** The argument of a spare host: it boots, then waits for a `configure` command. */
export const SPARE_ARGUMENT = "--spare";

/**
 * Parent → child. `stop`: stop accepting, let requests in flight finish for `graceMs`, then exit.
 * `configure` (a spare host only): take this environment (replacing the one it was started with)
 * and working directory, then serve `config`.
 */
export type HostCommand = { type: "stop"; graceMs: number } | { type: "configure"; config: HostConfig; env: Record<string, string>; cwd: string };

/** Parses the child's argument; throws an Error naming what is wrong. */
export function parseHostConfig(text: string | undefined): HostConfig {
  const value: unknown = JSON.parse(text ?? "null");
  if (typeof value !== "object" || value === null) throw new Error("the function host needs its configuration as a JSON argument");
  const c = value as Partial<Record<keyof HostConfig, unknown>>;
  if (typeof c.entry !== "string" || c.entry === "") throw new Error("the function host's configuration has no entry");
  if (typeof c.port !== "number" || !Number.isInteger(c.port) || c.port < 0 || c.port > 65_535) throw new Error("the function host's port must be an integer from 0 to 65535");
  if (typeof c.host !== "string" || c.host === "") throw new Error("the function host's configuration has no host");
  if (typeof c.firstByteTimeoutMs !== "number" || !(c.firstByteTimeoutMs > 0)) throw new Error("the function host's firstByteTimeoutMs must be positive");
  return { entry: c.entry, port: c.port, host: c.host, exposeStacks: c.exposeStacks === true, upgrades: c.upgrades === true, firstByteTimeoutMs: c.firstByteTimeoutMs };
}
