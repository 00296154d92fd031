/**
 * The handler contract of a function's entry module, pure: which export answers requests and
 * which one (if any) takes WebSocket upgrades. Used by the host child after it imports the module.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/** A Web-standard request handler: `(request) => Response | Promise<Response>`. */
export type FetchHandler = (request: Request) => unknown;

/** A raw Node upgrade handler, as `http.Server`'s `upgrade` event gives it. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => unknown;

/** The handlers an entry module provides. */
export interface FunctionHandlers {
  fetch: FetchHandler;
  /** Absent when the module exports none. */
  upgrade?: UpgradeHandler;
}

/** Why a module cannot serve: it exports no request handler. */
export class NoRequestHandlerError extends Error {
  /** What the module exports, e.g. `default (object without fetch), GET (function)`. */
  readonly exportsSeen: string;
  constructor(file: string, exportsSeen: string) {
    super(
      `no request handler found in ${file}: it exports ${exportsSeen}. ` +
        "Export an object with a fetch(request) method as default (e.g. a Hono app: export default app), " +
        "or a default function (request) => Response.",
    );
    this.name = "NoRequestHandlerError";
    this.exportsSeen = exportsSeen;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

function methodOf(holder: unknown, name: string): ((...args: never[]) => unknown) | undefined {
  if (!isObject(holder)) return undefined;
  let value: unknown;
  try {
    value = holder[name];
  } catch {
    // A throwing getter is not a handler.
    return undefined;
  }
  return typeof value === "function" ? (value as (...args: never[]) => unknown) : undefined;
}

/** `default (object without fetch), GET (function)`: each export's name and kind, sorted. */
export function describeExports(namespace: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(namespace).sort();
  if (names.length === 0) return "nothing";
  return names
    .map((name) => {
      const value = namespace[name];
      if (name === "default" && isObject(value) && typeof value !== "function") return "default (object without fetch)";
      const kind = value === null ? "null" : typeof value;
      return `${name} (${kind})`;
    })
    .join(", ");
}

/**
 * The handlers of a module namespace, in this order of precedence: `default.fetch(request)`
 * (called with `default` as `this`, so a Hono app works), else a default function. The upgrade
 * handler is a named `upgrade` export, else `default.upgrade`. Throws
 * {@link NoRequestHandlerError} naming `file` and its exports when there is no request handler.
 */
export function resolveHandlers(namespace: Readonly<Record<string, unknown>>, file: string): FunctionHandlers {
  const main = namespace.default;
  const fetchMethod = methodOf(main, "fetch");
  let fetch: FetchHandler;
  if (fetchMethod !== undefined) fetch = (request) => (fetchMethod as (this: unknown, r: Request) => unknown).call(main, request);
  else if (typeof main === "function") fetch = (request) => (main as FetchHandler)(request);
  else throw new NoRequestHandlerError(file, describeExports(namespace));
  const named = typeof namespace.upgrade === "function" ? (namespace.upgrade as UpgradeHandler) : undefined;
  const onDefault = methodOf(main, "upgrade");
  const upgrade: UpgradeHandler | undefined =
    named ?? (onDefault === undefined ? undefined : (req, socket, head) => (onDefault as (this: unknown, ...a: Parameters<UpgradeHandler>) => unknown).call(main, req, socket, head));
  return upgrade === undefined ? { fetch } : { fetch, upgrade };
}
