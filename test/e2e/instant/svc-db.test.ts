import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { ensureBuilt, ROOT, runSvc, type RunResult } from "../cli/harness.js";
import { call, query } from "./harness.js";

let emu: RunningEmulator;

beforeAll(async () => {
  await ensureBuilt();
  emu = await startEmulator({ clock: "manual" });
}, 240_000);
afterAll(async () => {
  await emu?.close();
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "svc-db-e2e-"));
}

/** Runs the real bin from the repository root (so `fixtures/…` paths work), not interactive. */
function svcDb(args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runSvc(["db", ...args], { cwd: ROOT, env: { SVC_CLAIM_API_HOST: emu.claimApiHost, SVC_NO_BROWSER: "1", ...env } });
}

describe("svc db against the emulator", () => {
  it("creates, seeds and writes both URLs, and pg sees the seeded rows through each of them", async () => {
    const envFile = join(tempDir(), ".env");
    const run = await svcDb(["--yes", "--seed", "fixtures/instant/seed.sql", "--write-env", envFile]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created a claimable Postgres 17 database\. It expires \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 72 hours\)\.\n/);
    expect(run.stdout).toContain(`Wrote DATABASE_URL (pooled), DATABASE_URL_DIRECT (direct) and PUBLIC_POSTGRES_CLAIM_URL to ${envFile}\n`);
    expect(run.stdout).not.toContain("postgresql://");
    const values = parse(readFileSync(envFile, "utf8"));
    expect(Object.keys(values)).toEqual(["DATABASE_URL", "DATABASE_URL_DIRECT", "PUBLIC_POSTGRES_CLAIM_URL"]);
    expect(values["DATABASE_URL"]).not.toBe(values["DATABASE_URL_DIRECT"]);
    expect(run.stdout).toContain(`Claim it to keep it: ${values["PUBLIC_POSTGRES_CLAIM_URL"]}   (or run: svc db claim)`);
    for (const url of [values["DATABASE_URL"] ?? "", values["DATABASE_URL_DIRECT"] ?? ""]) {
      expect(await query(url, "SELECT title FROM todos ORDER BY id")).toEqual([{ title: "write the seed" }, { title: "it's seeded; check" }]);
    }
  });

  it("prints the JSON document with both URLs and the server's expiry and claim URL", async () => {
    const dir = tempDir();
    const run = await svcDb(["--json", "-e", join(dir, "app.env"), "-k", "DEV_DATABASE_URL", "-p", "VITE_", "-r", "e2e-json"]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Record<string, unknown>;
    const record = (await call(`${emu.claimApiHost}/api/v1/database/${String(doc["id"])}`, "GET")).body;
    expect(doc).toMatchObject({
      formatVersion: 1,
      command: "db",
      status: "UNCLAIMED",
      databaseUrl: record["connection_string"],
      databaseUrlDirect: (record["emulator"] as Record<string, unknown>)["direct_connection_string"],
      claimUrl: record["claim_url"],
      expiresAt: record["expires_at"],
      keys: { url: "DEV_DATABASE_URL", direct: "DEV_DATABASE_URL_DIRECT", claimUrl: "VITE_POSTGRES_CLAIM_URL" },
      seeded: false,
      gitIgnored: null,
      warnings: [],
    });
    expect((record["emulator"] as Record<string, unknown>)["ref"]).toBe("e2e-json");
  });

  it.each([
    ["DATABASE_URL", "DATABASE_URL="],
    ["DATABASE_URL_DIRECT", "export DATABASE_URL_DIRECT=postgres://x"],
    ["PUBLIC_POSTGRES_CLAIM_URL", "PUBLIC_POSTGRES_CLAIM_URL=\"https://example.test/claim/1\""],
  ])("refuses with exit 3 and changes nothing when %s is already set, even with --yes", async (name, line) => {
    const envFile = join(tempDir(), ".env");
    const before = `# app\nAPP_NAME=demo\n${line}\n`;
    writeFileSync(envFile, before);
    const run = await svcDb(["--yes", "-e", envFile]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`error PLATFORM_INSTANT_KEY_EXISTS: ${name} is already set in ${envFile} (line 3). Nothing was created.`);
    expect(run.stderr).toContain("hint: use -k DEV_DATABASE_URL or -e .env.development, or remove the lines yourself");
    expect(readFileSync(envFile, "utf8")).toBe(before);
  });

  it("exits 7 without writing the env file when the seed fails, naming the statement and its line", async () => {
    const envFile = join(tempDir(), ".env");
    const run = await svcDb(["-y", "-s", "fixtures/instant/failing-seed.sql", "-e", envFile]);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('error PLATFORM_INSTANT_SEED_FAILED: fixtures/instant/failing-seed.sql:4:13: statement 3 of 3 failed: relation "user_accounts" does not exist (SQLSTATE 42P01)');
    expect(run.stderr).toContain("  > INSERT INTO user_accounts (email) VALUES ('b@example.com')");
    expect(run.stderr).toContain("hint: Nothing from fixtures/instant/failing-seed.sql was kept.");
    expect(run.stderr).not.toContain("postgresql://");
    expect(existsSync(envFile)).toBe(false);
  });

  it.each([
    ["a missing file", null, "", "\n"],
    ["a file without a final newline", "APP=1", "APP=1\n\n", "\n"],
    ["a CRLF file", "APP=1\r\nOTHER=2\r\n", "APP=1\r\nOTHER=2\r\n\r\n", "\r\n"],
    ["a file with a BOM", "\uFEFFAPP=1\n", "\uFEFFAPP=1\n\n", "\n"],
  ])("writes the exact block bytes into %s", async (_name, before, prefix, eol) => {
    const envFile = join(tempDir(), ".env");
    if (before !== null) writeFileSync(envFile, before);
    const run = await svcDb(["--json", "-e", envFile]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Record<string, string>;
    const record = (await call(`${emu.claimApiHost}/api/v1/database/${doc["id"]}`, "GET")).body as Record<string, string>;
    const block = [
      `# svc db: claimable Postgres database ${doc["id"]}, created ${record["created_at"]}`,
      `DATABASE_URL=${doc["databaseUrl"]}`,
      `DATABASE_URL_DIRECT=${doc["databaseUrlDirect"]}`,
      `# Expires ${doc["expiresAt"]} (${new Date(doc["expiresAt"] ?? "").toUTCString()}) unless claimed.`,
      "# Claim it into your account with the link below, or run: svc db claim",
      `PUBLIC_POSTGRES_CLAIM_URL=${doc["claimUrl"]}`,
    ];
    expect(readFileSync(envFile, "utf8")).toBe(prefix + block.join(eol) + eol);
  });

  it("rejects a bad key before creating anything", async () => {
    const run = await svcDb(["-y", "-k", "database-url", "-e", join(tempDir(), ".env")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error PLATFORM_INSTANT_INVALID_OPTIONS: --key "database-url" must be an upper-case variable name');
  });

  it("warns when the env file is not ignored by git, without editing .gitignore", async () => {
    const dir = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const run = await svcDb(["-y", "-e", join(dir, ".env")]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`warning: ${join(dir, ".env")} is not ignored by git; add this line to .gitignore: .env\n`);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
  });

  it.each([
    ["after claim", (file: string) => ["db", "claim", "--write-env", file, "--json"]],
    ["before claim", (file: string) => ["db", "--write-env", file, "claim", "--json"]],
  ])("claim reads the file svc db --write-env wrote when given the same flag %s", async (_label, args) => {
    const dir = tempDir();
    const envFile = join(dir, ".env.db");
    expect((await svcDb(["-y", "--write-env", envFile])).code).toBe(0);
    const claimUrl = parse(readFileSync(envFile, "utf8"))["PUBLIC_POSTGRES_CLAIM_URL"];
    const run = await runSvc(args(envFile), { cwd: dir, env: {} });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toMatchObject({ command: "db claim", status: "UNCLAIMED", claimUrl });
    const both = await runSvc(["db", "claim", "--write-env", envFile, "-e", join(dir, ".env")], { cwd: dir, env: {} });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("name two files; they are the same option: give one");
  });

  it.each([
    [["db", "claim", "-y"], "unknown option '-y'"],
    [["db", "claim", "-k", "PG_URL"], "unknown option '-k'"],
    [["db", "claim", "-s", "seed.sql"], "unknown option '-s'"],
    [["db", "claim", "--logical-replication"], "unknown option '--logical-replication'"],
    [["db", "-y", "--seed", "seed.sql", "claim"], "svc db claim does not take -y/--yes, -s/--seed."],
  ])("claim refuses a flag only svc db takes, naming it, before reading anything: svc %j", async (args, message) => {
    const dir = tempDir();
    const run = await runSvc(args, { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error CLI_USAGE: ${message}`);
    expect(run.stderr).toContain("hint: usage: svc db claim [options]");
  });

  it("claim reports an unclaimed database with its URL, and an expired or missing one as exit 1", async () => {
    const dir = tempDir();
    const envFile = join(dir, ".env");
    expect((await svcDb(["-y", "-e", envFile])).code).toBe(0);
    const claimUrl = parse(readFileSync(envFile, "utf8"))["PUBLIC_POSTGRES_CLAIM_URL"] ?? "";
    const human = await runSvc(["db", "claim", "-e", envFile], { cwd: dir, env: { SVC_NO_BROWSER: "1" } });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/: UNCLAIMED, expires .* UTC \(in 72 hours\)\n/);
    expect(human.stdout).toContain(`Claim it: ${claimUrl}\n`);
    const doc = JSON.parse((await runSvc(["db", "claim", "--json", "-e", envFile], { cwd: dir, env: {} })).stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ formatVersion: 1, command: "db claim", status: "UNCLAIMED", claimUrl, opened: false });

    emu.state.clock.advance(73 * 3600 * 1000);
    const gone = await runSvc(["db", "claim", "-e", envFile], { cwd: dir, env: {} });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("error PLATFORM_INSTANT_NOT_FOUND: This database has expired or does not exist.");

    const none = await runSvc(["db", "claim", "-e", join(dir, "missing.env")], { cwd: dir, env: {} });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("error PLATFORM_INSTANT_CLAIM_URL_NOT_FOUND");
    expect(none.stderr).toContain("hint: run svc db first");
  });
});
