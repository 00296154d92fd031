/**
 * Claimable connection strings follow the seed: the pooled host contains `-pooler`, removing it
 * gives a working direct connection, and adding `-pooler` to the direct host's first label (as
 * tools do) gives a working pooled one — locally, with no DNS and no root.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createClaimableDatabase } from "../../../src/instant/index.js";
import { directUrlOf } from "../../../src/instant/instant-postgres.js";
import { currentDatabase } from "../../helpers/postgres.js";

const run = promisify(execFile);

/** The host as tools see it: the URL's hostname (percent-encoded for a socket directory). */
const hostOf = (url: string): string => new URL(url).hostname;
/** The seed's rule: remove `-pooler` from the host. */
const withoutPooler = (url: string): string => url.replace(hostOf(url), hostOf(url).replace("-pooler", ""));
/** What tools do: add `-pooler` to the first label of the direct host. */
const withPoolerAfterFirstLabel = (url: string): string => {
  const [first = "", ...rest] = hostOf(url).split(".");
  return url.replace(hostOf(url), [`${first}-pooler`, ...rest].join("."));
};

describe("claimable connection strings", () => {
  let emu: RunningEmulator;
  let raw: Awaited<ReturnType<typeof createClaimableDatabase>>;
  let record: { connection_string: string; emulator: { direct_connection_string: string; database_name: string } };
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    raw = await createClaimableDatabase({ referrer: "hosts-test", apiHost: emu.claimApiHost });
    record = raw as unknown as typeof record;
  });
  afterAll(() => emu?.close());

  it("give a pooled host containing -pooler and no loopback address with a port", () => {
    expect(hostOf(record.connection_string)).toContain("-pooler");
    expect(record.connection_string).not.toMatch(/127\.0\.0\.1:\d+/);
  });

  it("connect, with pg, pooled and after removing -pooler, which yields the direct connection string", async () => {
    const direct = withoutPooler(record.connection_string);
    expect(direct).toBe(record.emulator.direct_connection_string);
    expect(await currentDatabase(record.connection_string)).toBe(record.emulator.database_name);
    expect(await currentDatabase(direct)).toBe(record.emulator.database_name);
  });

  it("connect when a tool adds -pooler after the direct host's first label", async () => {
    const pooled = withPoolerAfterFirstLabel(record.emulator.direct_connection_string);
    expect(pooled).toBe(record.connection_string);
    expect(await currentDatabase(pooled)).toBe(record.emulator.database_name);
  });

  it("connect with psql too", async (ctx) => {
    const psql = await run("psql", ["--version"]).catch(() => null);
    if (psql === null) {
      if (process.env["SVC_SKIP_PSQL_TESTS"] === "1" && !process.env["CI"]) return ctx.skip("psql is missing and SVC_SKIP_PSQL_TESTS=1");
      throw new Error("psql is missing: install it with `apt-get install -y --no-install-recommends postgresql-client` (or set SVC_SKIP_PSQL_TESTS=1 outside CI)");
    }
    for (const url of [record.connection_string, withoutPooler(record.connection_string)]) {
      const { stdout } = await run("psql", [url, "-Atc", "SELECT current_database()"]);
      expect(stdout.trim()).toBe(record.emulator.database_name);
    }
  });

  it("let the SDK derive the direct URL by the seed's rule when the emulator extension is absent", async () => {
    const warnings: string[] = [];
    const { emulator: _extension, ...hosted } = raw;
    const derived = directUrlOf(hosted, warnings);
    expect(warnings).toEqual([]);
    expect(await currentDatabase(derived)).toBe(record.emulator.database_name);
  });
});
