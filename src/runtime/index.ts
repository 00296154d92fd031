/**
 * The function host shared by `svc dev` and the emulator: one child process per running
 * function, serving its bundled entry module over HTTP under the platform's handler contract.
 *
 * ```ts
 * const fn = await startFunctionProcess({
 *   entry: "/abs/dir/index.mjs",  // the bundled module (a regular file)
 *   port: 0,                      // 0 = any free port; read fn.port / fn.url
 *   env: functionEnvironment({ platform, own }), // the child's whole environment
 *   memoryMb: 2048,               // --max-old-space-size, the platform's by default
 *   exposeStacks: false,          // true only in `svc dev`: a 500 carries the stack
 *   upgrades: true,               // false: Upgrade requests get 501
 *   onRequest: (r) => log(r),     // { method, path, status, ms, error? } per finished request
 *   onOutput: (line, stream) => log(line),
 * });
 * await fetch(`${fn.url}/path`);  // the handler sees the path the caller used
 * await fn.stop();                // graceful, then SIGKILL; fn.exited tells a crash from a stop
 * ```
 *
 * The contract the child serves: the module's `default.fetch(request)` (e.g. a Hono app), else a
 * default function `(request) => Response`; otherwise the start fails with "no request handler
 * found" naming the file and what it exports. A named `upgrade(req, socket, head)` export (or
 * `default.upgrade`) takes WebSocket upgrades; without one an Upgrade request reaches the fetch
 * handler as an ordinary request, and with `upgrades: false` it gets a 501. A throwing handler gets `500`, `text/plain`,
 * `Internal Server Error` (plus the source-mapped stack with `exposeStacks`) and its error in the
 * request record. Responses stream (server-sent events included); requests run concurrently;
 * no Response within `firstByteTimeoutMs` (15 minutes) gets a 504. The child exits when its
 * parent's IPC channel closes, so `kill -9` of the parent leaves no child. A crash or
 * `process.exit` in the function resolves `exited` with `stopped: false`; restarting is the
 * caller's choice. `SpareHosts` keeps one booted host waiting, so a replacement (a reload) skips
 * Node.js's start-up. Imports only node built-ins and `rules/`.
 */
export {
  FunctionHostError,
  PLATFORM_FIRST_BYTE_TIMEOUT_MS,
  PLATFORM_MEMORY_MB,
  SpareHosts,
  startFunctionProcess,
  type FunctionProcess,
  type FunctionProcessExit,
  type SpareHostsOptions,
  type StartFunctionProcessOptions,
} from "./function-process.js";
export type { HostFailureReason, RequestRecord } from "./host-protocol.js";
