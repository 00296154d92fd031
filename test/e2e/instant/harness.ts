import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
import { claimableApiRoutes } from "../../../src/emulator/claimable/api-routes.js";
import type { ClaimableEnv } from "../../../src/emulator/claimable/env.js";
import { claimPageRoutes, type ClaimAccounts } from "../../../src/emulator/claimable/claim-page-routes.js";
import { createClaimableService, type ClaimableService, type ClaimAdoption } from "../../../src/emulator/claimable/service.js";
import { createPostgresBackend, type PostgresBackend } from "../../../src/emulator/postgres/backend.js";

/** A manual clock the tests move by hand. */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

/** Creates a manual clock starting at `start`. */
export function manualClock(start = Date.parse("2026-11-22T00:00:00.000Z")): ManualClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** A claimable API served over real HTTP on 127.0.0.1, backed by one real PostgreSQL server. */
export interface Harness {
  readonly url: string;
  readonly clock: ManualClock;
  readonly service: ClaimableService;
  readonly adoptions: ClaimAdoption[];
  readonly log: string[];
  close(): Promise<void>;
}

/** Fake management accounts for the claim page: one personal key and one organization key. */
export const TEST_ACCOUNTS: ClaimAccounts = {
  signIn: (apiKey) => {
    if (apiKey === "personal-key") return { id: "user-1", label: "dev@example.test", owners: [{ id: "personal", label: "Personal account" }, { id: "org-acme", label: "Acme" }] };
    if (apiKey === "org-key") return { id: "org-key-1", label: "Acme key", owners: [{ id: "org-acme", label: "Acme" }] };
    return null;
  },
};

/** Starts the harness on a shared backend (one PostgreSQL server for a whole test file). */
export async function startHarness(backend: PostgresBackend, options: { storageLimitBytes?: number; claimTransferMs?: number; adopt?: (adoption: ClaimAdoption) => void } = {}): Promise<Harness> {
  const clock = manualClock();
  const log: string[] = [];
  const adoptions: ClaimAdoption[] = [];
  const service = createClaimableService({
    backend,
    clock,
    instanceId: "test-instance",
    log: (line) => log.push(line),
    ...options,
    adopt: (adoption) => {
      options.adopt?.(adoption);
      adoptions.push(adoption);
    },
  });
  let origin = "";
  const app = new Hono<ClaimableEnv>();
  app.route("/", claimableApiRoutes({ service, origin: () => origin, log: (line) => log.push(line) }));
  app.route("/", claimPageRoutes({ service, accounts: TEST_ACCOUNTS, clock, pgVersion: () => backend.info()?.majorVersion ?? 17 }));
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return {
    url: origin,
    clock,
    service,
    adoptions,
    log,
    close: async () => {
      await service.dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Creates the shared backend of a test file (embedded, temporary cluster). */
export function testBackend(): PostgresBackend {
  return createPostgresBackend({ log: () => undefined });
}

/** Runs one query on a fresh connection and closes it. */
export async function query(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

/** Sends JSON (or a raw string) to the API and returns status, headers and parsed body. */
/** A bearer-authenticated JSON request to an emulator's management API (`apiHost` + `path`). */
export async function managementCall(
  emu: { apiHost: string; apiKey: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.apiHost}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function call(url: string, method: string, body?: unknown, raw?: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
