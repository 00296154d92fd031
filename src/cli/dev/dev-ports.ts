/**
 * Which port each function of `svc dev` listens on: its `dev.port`, else the first free port
 * from 8787 upward that no other function holds. Chosen before any child starts and kept for the
 * session (a reload restarts on the same port).
 */
import { createServer } from "node:net";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";

/** The first port `svc dev` tries for a function without `dev.port`. */
export const FIRST_DEV_PORT = 8787;

/** The address `svc dev` serves on. */
export const DEV_HOST = "127.0.0.1";

/** Whether nothing listens on `port` at `host` (a probe that binds and closes at once). */
export function isPortFree(port: number, host: string = DEV_HOST): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A function asking for a port: its slug and its `dev.port`, if any. */
export interface PortRequest {
  slug: string;
  devPort?: number;
}

/** Options of {@link assignPorts}. */
export interface AssignPortsOptions {
  /** Ports already held (by functions that keep theirs across a reload). */
  held?: ReadonlySet<number>;
  /** Where the search for a free port starts. @default 8787 */
  from?: number;
  /** The free-port probe. @default isPortFree */
  isFree?: (port: number) => Promise<boolean>;
}

/** The error for a port (a `dev.port`, or `--port`) that something else holds. */
export function portTakenError(slug: string, port: number, by: string, from: "dev.port" | "--port" = "dev.port"): CliError {
  const fix = from === "dev.port" ? `change functions.${slug}.dev.port in svc.ts` : "pass another --port";
  return new CliError(CliErrorCode.USAGE, `Function ${slug}: port ${port} (${from === "dev.port" ? "its dev.port" : "--port"}) is in use by ${by}.`, {
    hint: `Stop what listens on ${port}, or ${fix}.`,
    details: { function: slug, port },
  });
}

/**
 * Assigns ports in slug order: each `dev.port` must be free and unique (else a `CLI_USAGE` error
 * naming the function and the port); the others get the first free port from `from` upward that
 * is neither held nor assigned. Returns slug → port.
 */
export async function assignPorts(requests: readonly PortRequest[], options: AssignPortsOptions = {}): Promise<Map<string, number>> {
  const isFree = options.isFree ?? ((port: number) => isPortFree(port));
  const held = new Set(options.held ?? []);
  const sorted = [...requests].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const assigned = new Map<string, number>();
  const owner = new Map<number, string>();
  for (const { slug, devPort } of sorted) {
    if (devPort === undefined) continue;
    const other = owner.get(devPort);
    if (other !== undefined) throw portTakenError(slug, devPort, `function ${other} (the same dev.port)`);
    if (held.has(devPort) || !(await isFree(devPort))) throw portTakenError(slug, devPort, "another process");
    assigned.set(slug, devPort);
    owner.set(devPort, slug);
  }
  let next = options.from ?? FIRST_DEV_PORT;
  for (const { slug, devPort } of sorted) {
    if (devPort !== undefined) continue;
    while (next <= 65_535 && (held.has(next) || owner.has(next) || !(await isFree(next)))) next += 1;
    if (next > 65_535) throw new CliError(CliErrorCode.USAGE, `No free port from ${options.from ?? FIRST_DEV_PORT} upward for function ${slug}.`, { hint: "Set functions.<slug>.dev.port in svc.ts." });
    assigned.set(slug, next);
    owner.set(next, slug);
    next += 1;
  }
  return assigned;
}
