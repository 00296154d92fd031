/**
 * Entry point of a function host process (started by `startFunctionProcess`, never imported).
 * It imports the bundled entry module named in its JSON argument, resolves the handler contract,
 * serves HTTP on the given port, reports `ready` (or why it cannot serve) and every finished
 * request over IPC, and exits as soon as the IPC channel to its parent closes, so a killed parent
 * leaves no host behind. The function's environment is this process's environment.
 */
import { statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { pathToFileURL } from "node:url";
import { NoRequestHandlerError, resolveHandlers, type FunctionHandlers } from "./handler-contract.js";
import { parseHostConfig, SPARE_ARGUMENT, type HostCommand, type HostConfig, type HostEvent, type HostFailureReason, type RequestRecord } from "./host-protocol.js";
import { requestUrl, toWebRequest, writeWebResponse } from "./node-web.js";

function send(event: HostEvent): void {
  if (process.connected && process.send !== undefined) process.send(event);
}

/** Reports why the host cannot serve, then exits once the report is on its way. */
function fail(reason: HostFailureReason, message: string): void {
  const event: HostEvent = { type: "failed", reason, message };
  if (process.connected && process.send !== undefined) process.send(event, () => process.exit(1));
  else process.exit(1);
  setTimeout(() => process.exit(1), 2000).unref();
}

/** A stack frame of the host's own dispatch (this file and the modules it calls the handler through). */
const HOST_FRAME = /[\\/]runtime[\\/](?:host-child|handler-contract|node-web)\.[jt]s:\d+/;

/** The error's stack, cut at the first frame of the host: what is left is the user's code. */
function stackOf(err: unknown): string {
  if (!(err instanceof Error)) return `a non-Error value was thrown: ${safeString(err)}`;
  const stack = err.stack ?? `${err.name}: ${err.message}`;
  const lines = stack.split("\n");
  const cut = lines.findIndex((line) => /^\s+at /.test(line) && HOST_FRAME.test(line));
  return (cut === -1 ? lines : lines.slice(0, cut)).join("\n");
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** The plain-text answer of a failed request: the reason phrase, plus the detail when stacks are exposed. */
function plainAnswer(res: ServerResponse, status: number, phrase: string, detail: string | undefined): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = detail === undefined ? phrase : `${phrase}\n\n${detail}\n`;
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** The entry's module namespace, or `undefined` after reporting why it cannot be loaded. */
async function importEntry(entry: string): Promise<Record<string, unknown> | undefined> {
  let isFile = false;
  try {
    isFile = statSync(entry).isFile();
  } catch {
    isFile = false;
  }
  // A FIFO or device would block the import forever; a directory cannot be imported.
  if (!isFile) {
    fail("not-a-file", `the function's entry ${entry} is not a regular file`);
    return undefined;
  }
  try {
    return (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (err) {
    fail("load-failed", `loading ${entry} failed:\n${stackOf(err)}`);
    return undefined;
  }
}

function handleRequest(config: HostConfig, handlers: FunctionHandlers, req: IncomingMessage, res: ServerResponse): void {
  const started = process.hrtime.bigint();
  const method = req.method ?? "GET";
  const path = req.url ?? "/";
  let error: string | undefined;
  let timedOut = false;
  let reported = false;
  const report = (): void => {
    if (reported) return;
    reported = true;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const record: RequestRecord = { method, path, status: res.headersSent ? res.statusCode : 0, ms: Math.round(ms * 10) / 10 };
    if (error !== undefined) record.error = error;
    if (timedOut) record.timedOut = true;
    send({ type: "request", record });
  };
  res.once("close", report);
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const timer = setTimeout(() => {
    timedOut = !res.headersSent;
    plainAnswer(res, 504, "Gateway Timeout", config.exposeStacks ? `the handler produced no response within ${config.firstByteTimeoutMs} ms` : undefined);
  }, config.firstByteTimeoutMs);
  timer.unref();
  void (async () => {
    let response: unknown;
    try {
      const request = toWebRequest(req, requestUrl(req, `${config.host.includes(":") ? `[${config.host}]` : config.host}:${portOf(req)}`), abort.signal);
      response = await handlers.fetch(request);
    } catch (err) {
      clearTimeout(timer);
      error = stackOf(err);
      plainAnswer(res, 500, "Internal Server Error", config.exposeStacks ? error : undefined);
      return;
    }
    clearTimeout(timer);
    if (res.headersSent || res.destroyed) return;
    if (!(response instanceof Response)) {
      error = `the handler returned ${describeValue(response)}, not a Response`;
      plainAnswer(res, 500, "Internal Server Error", config.exposeStacks ? error : undefined);
      return;
    }
    try {
      await writeWebResponse(res, response, method);
    } catch (err) {
      error = `the response body failed while streaming:\n${stackOf(err)}`;
    }
  })();
}

function portOf(req: IncomingMessage): number {
  return (req.socket as Socket).localPort ?? 0;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return typeof value;
}

function handleUpgrade(config: HostConfig, handlers: FunctionHandlers, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const refuse = (status: number, phrase: string): void => {
    if (!socket.destroyed) socket.end(`HTTP/1.1 ${status} ${phrase}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  };
  const upgrade = handlers.upgrade;
  if (!config.upgrades || upgrade === undefined) {
    refuse(501, "Not Implemented");
    return;
  }
  void (async () => {
    try {
      await upgrade(req, socket, head);
    } catch (err) {
      send({ type: "request", record: { method: req.method ?? "GET", path: req.url ?? "/", status: 500, ms: 0, error: stackOf(err) } });
      refuse(500, "Internal Server Error");
    }
  })();
}

/** Node loads its fetch classes on first use; load them at boot, so the first request is not the slow one. */
function warmUp(): void {
  void new Response(new Request("http://127.0.0.1/").body);
}

/** A spare host's configuration: waits for `configure`, then takes its environment and directory. */
function awaitConfiguration(): Promise<HostConfig> {
  return new Promise((resolve, reject) => {
    const onMessage = (command: HostCommand): void => {
      if (command?.type !== "configure") return;
      process.off("message", onMessage);
      try {
        for (const name of Object.keys(process.env)) delete process.env[name];
        Object.assign(process.env, command.env);
        process.chdir(command.cwd);
        resolve(parseHostConfig(JSON.stringify(command.config)));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    process.on("message", onMessage);
    send({ type: "spare-ready" });
  });
}

async function main(): Promise<void> {
  // Losing the parent (stopped, crashed, killed with SIGKILL) ends the host at once.
  process.on("disconnect", () => process.exit(0));
  // Ctrl-C in a terminal reaches the whole process group; the parent decides when the host stops.
  process.on("SIGINT", () => undefined);
  warmUp();
  let config: HostConfig;
  try {
    config = process.argv[2] === SPARE_ARGUMENT ? await awaitConfiguration() : parseHostConfig(process.argv[2]);
  } catch (err) {
    return fail("load-failed", err instanceof Error ? err.message : String(err));
  }
  const namespace = await importEntry(config.entry);
  if (namespace === undefined) return;
  let handlers: FunctionHandlers;
  try {
    handlers = resolveHandlers(namespace, config.entry);
  } catch (err) {
    return fail(err instanceof NoRequestHandlerError ? "no-handler" : "load-failed", err instanceof NoRequestHandlerError ? err.message : stackOf(err));
  }
  const server = createServer((req, res) => handleRequest(config, handlers, req, res));
  // A request body may stream for as long as the handler reads it (the platform allows 15 minutes to the first byte).
  server.requestTimeout = 0;
  // Without an upgrade handler an Upgrade request is an ordinary request for the fetch handler (Node
  // routes it there when nothing listens for "upgrade"); with upgrades turned off it gets a 501.
  if (handlers.upgrade !== undefined || !config.upgrades) {
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(config, handlers, req, socket, head));
  }
  server.once("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EADDRINUSE") fail("port-in-use", `port ${config.port} on ${config.host} is already in use`);
    else fail("listen-failed", `listening on ${config.host}:${config.port} failed: ${err.message}`);
  });
  process.on("message", (command: HostCommand) => {
    if (command?.type !== "stop") return;
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), Math.max(0, command.graceMs)).unref();
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    send({ type: "ready", port: typeof address === "object" && address !== null ? address.port : config.port });
  });
}

void main();
