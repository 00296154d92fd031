import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPlatformError } from "../../../src/errors/index.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createClaimableDatabase, getClaimableDatabase, instantPostgres } from "../../../src/instant/index.js";
import { query } from "./harness.js";

let emu: RunningEmulator;
let dir: string;
const SKEWED_START = new Date("2020-01-01T00:00:00.000Z");

beforeAll(async () => {
  emu = await startEmulator({ clock: SKEWED_START });
  dir = await mkdtemp(path.join(tmpdir(), "svc-instant-sdk-"));
});
afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

async function databaseCount(anyUrl: string): Promise<number> {
  const [row] = await query(anyUrl, "SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE 'svc\\_claim\\_%'");
  return Number(row?.["n"]);
}

async function caught(promise: Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("instantPostgres", () => {
  it("creates, seeds and writes the exact env block; both URLs from the file see the seeded rows", async () => {
    const envFile = path.join(dir, "seeded.env");
    const result = await instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: envFile, seed: { type: "sql-script", path: "fixtures/instant/seed.sql" } });
    const record = (await getClaimableDatabase(result.id, { apiHost: emu.claimApiHost }))!;
    const text = await readFile(envFile, "utf8");
    expect(text).toBe(
      [
        `# svc db: claimable Postgres database ${result.id}, created ${String(record.created_at)}`,
        `DATABASE_URL=${result.databaseUrl}`,
        `DATABASE_URL_DIRECT=${result.databaseUrlDirect}`,
        `# Expires ${String(record.expires_at)} (${new Date(String(record.expires_at)).toUTCString()}) unless claimed.`,
        "# Claim it into your account with the link below, or run: svc db claim",
        `PUBLIC_POSTGRES_CLAIM_URL=${record.claim_url}`,
        "",
      ].join("\n"),
    );
    expect((await stat(envFile)).mode & 0o777).toBe(0o600);
    const env = parse(text);
    expect(env["DATABASE_URL"]).not.toBe(env["DATABASE_URL_DIRECT"]);
    for (const url of [env["DATABASE_URL"]!, env["DATABASE_URL_DIRECT"]!]) {
      expect(await query(url, "SELECT title FROM todos ORDER BY id")).toEqual([{ title: "write the seed" }, { title: "it's seeded; check" }]);
      expect(await query(url, "SELECT open_todos()::int AS n")).toEqual([{ n: 1 }]);
    }
  });

  it("takes expiry and claim URL from the server, not from a skewed local clock", async () => {
    const result = await instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: false });
    expect(result.claimExpiresAt.toISOString()).toBe(new Date(SKEWED_START.getTime() + 72 * 3_600_000).toISOString());
    expect(result.claimUrl).toBe(`${emu.url}/claim/${result.id}`);
  });

  it("refuses a second call on the same file and creates nothing", async () => {
    const envFile = path.join(dir, "twice.env");
    const first = await instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: envFile });
    const before = await databaseCount(first.databaseUrlDirect);
    const err = await caught(instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: envFile }));
    expect(isPlatformError(err, "PLATFORM_INSTANT_KEY_EXISTS")).toBe(true);
    expect(err.message).toBe(`DATABASE_URL is already set in ${envFile} (line 2). Nothing was created.`);
    expect(await databaseCount(first.databaseUrlDirect)).toBe(before);
  });

  it("counts a name assigned to an empty value or with export as present, and ignores commented lines", async () => {
    const cases: Array<{ content: string; error: string | null }> = [
      { content: "DATABASE_URL=\n", error: "DATABASE_URL" },
      { content: "export DATABASE_URL_DIRECT=postgres://x\n", error: "DATABASE_URL_DIRECT" },
      { content: "# PUBLIC_POSTGRES_CLAIM_URL=https://old\n", error: null },
    ];
    for (const [i, { content, error }] of cases.entries()) {
      const envFile = path.join(dir, `present-${i}.env`);
      await writeFile(envFile, content);
      const outcome = instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: envFile });
      if (error === null) await outcome;
      else expect((await caught(outcome)).message).toMatch(new RegExp(`^${error} is already set`));
    }
  });

  it("appends after a missing final newline and keeps CRLF line endings and a BOM", async () => {
    const cases = [
      { name: "no-newline.env", content: "APP=1", expectedStart: "APP=1\n\n# svc db:", eol: "\n" },
      { name: "crlf.env", content: "\uFEFFAPP=1\r\nOTHER=2\r\n", expectedStart: "\uFEFFAPP=1\r\nOTHER=2\r\n\r\n# svc db:", eol: "\r\n" },
    ];
    for (const { name, content, expectedStart, eol } of cases) {
      const envFile = path.join(dir, name);
      await writeFile(envFile, content, { mode: 0o640 });
      await instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: envFile });
      const text = await readFile(envFile, "utf8");
      expect(text.startsWith(expectedStart)).toBe(true);
      expect(text.endsWith(eol)).toBe(true);
      expect(text.slice(content.length).split(eol).filter((l) => l !== "")).toHaveLength(6);
      expect((await stat(envFile)).mode & 0o777).toBe(0o640);
    }
  });

  it("rolls back a failing seed, names the statement's line, and writes no env file", async () => {
    const envFile = path.join(dir, "failing.env");
    const err = await caught(instantPostgres({ referrer: "sdk-test", apiHost: emu.claimApiHost, dotEnvFile: envFile, seed: { type: "sql-script", path: "fixtures/instant/failing-seed.sql" } }));
    expect(isPlatformError(err, "PLATFORM_INSTANT_SEED_FAILED")).toBe(true);
    expect(err.message).toBe('fixtures/instant/failing-seed.sql:4:13: statement 3 of 3 failed: relation "user_accounts" does not exist (SQLSTATE 42P01)');
    expect(String(err.details?.["hint"])).toMatch(/^Nothing from fixtures\/instant\/failing-seed\.sql was kept\. The empty database .+ remains until 2020-01-04 00:00 UTC/);
    expect(err.message).not.toContain("postgresql://");
    await expect(stat(envFile)).rejects.toMatchObject({ code: "ENOENT" });
    const record = (await getClaimableDatabase(String(err.details?.["databaseId"]), { apiHost: emu.claimApiHost }))!;
    expect(await query(String(record.emulator?.direct_connection_string), "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'users'")).toEqual([{ n: 0 }]);
  });

  it("rejects bad options before any request", async () => {
    let requests = 0;
    const counting: typeof fetch = (...args) => {
      requests++;
      return fetch(...args);
    };
    const cases: Array<Parameters<typeof instantPostgres>[0]> = [
      { referrer: "  ", fetch: counting },
      { referrer: "x", dotEnvKey: "database-url", fetch: counting },
      { referrer: "x", envPrefix: "vite-", fetch: counting },
    ];
    for (const options of cases) expect((await caught(instantPostgres({ ...options, apiHost: emu.claimApiHost, dotEnvFile: false }))).code).toBe("PLATFORM_INSTANT_INVALID_OPTIONS");
    expect(requests).toBe(0);
  });
});

describe("the lower-level client", () => {
  it("retries a create whose response was lost and lands in the same database", async () => {
    let calls = 0;
    const losesFirstResponse: typeof fetch = async (input, init) => {
      calls++;
      const response = await fetch(input, init);
      if (calls === 1) {
        await response.text();
        throw new TypeError("fetch failed: connection reset");
      }
      return response;
    };
    const record = await createClaimableDatabase({ referrer: "retry", apiHost: emu.claimApiHost, fetch: losesFirstResponse });
    expect(calls).toBe(2);
    const direct = String(record.emulator?.direct_connection_string);
    const [row] = await query(direct, `SELECT count(*)::int AS n FROM pg_database WHERE datname = 'svc_claim_${record.id.replaceAll("-", "")}'`);
    expect(row).toEqual({ n: 1 });
  });

  it("retries through an emulator reset-after-commit fault and lands in the database that was created", async () => {
    emu.state.faults.set("reset=1,phase=after,method=POST,path=/api/v1/database/*,nth=1");
    try {
      const record = await createClaimableDatabase({ referrer: "reset-after-commit", apiHost: emu.claimApiHost });
      expect(emu.state.faults.injected()).toHaveLength(1);
      const direct = String(record.emulator?.direct_connection_string);
      expect(await query(direct, `SELECT count(*)::int AS n FROM pg_database WHERE datname = 'svc_claim_${record.id.replaceAll("-", "")}'`)).toEqual([{ n: 1 }]);
      expect((await getClaimableDatabase(record.id, { apiHost: emu.claimApiHost }))?.emulator?.["ref"]).toBe("reset-after-commit");
    } finally {
      emu.state.faults.set(null);
    }
  });

  it("sees emulator status faults on /api/v1 with the claimable error body", async () => {
    emu.state.faults.set("status=503,path=/api/v1/database/*,method=GET,times=1");
    try {
      const res = await fetch(`${emu.claimApiHost}/api/v1/database/0197a3c2-0000-7000-8000-000000000000`);
      expect(res.status).toBe(503);
      expect(res.headers.get("x-emulator-fault")).toBe("0");
      expect(await res.json()).toMatchObject({ code: "service_unavailable", request_id: res.headers.get("x-request-id") });
    } finally {
      emu.state.faults.set(null);
    }
  });

  it("falls back to POST /api/v1/database when the server lacks the client-id route", async () => {
    const noIdRoute: typeof fetch = async (input, init) => {
      const url = String(input);
      if (/\/api\/v1\/database\/[0-9a-f-]+$/.test(url)) return new Response(JSON.stringify({ code: "route_not_found", message: "no route" }), { status: 404 });
      return fetch(input, init);
    };
    const record = await createClaimableDatabase({ referrer: "fallback", apiHost: `${emu.claimApiHost}/api/v1`, fetch: noIdRoute });
    expect(record.status).toBe("UNCLAIMED");
  });

  it("answers null for an unknown id and maps a missing referrer to PLATFORM_INSTANT_API_ERROR details", async () => {
    expect(await getClaimableDatabase("0197a3c2-0000-7000-8000-000000000000", { apiHost: emu.claimApiHost })).toBeNull();
    const err = await caught(createClaimableDatabase({ referrer: "x", apiHost: emu.claimApiHost, fetch: (input, init) => fetch(input, { ...init, body: "{}" }) }));
    expect(err.code).toBe("PLATFORM_INSTANT_API_ERROR");
    expect(err.details).toMatchObject({ status: 400, code: "missing_referrer", message: "Missing referrer" });
  });
});
