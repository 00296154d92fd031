import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { BIN, childEnv, ensureBuilt } from "../cli/harness.js";

let emu: RunningEmulator;

beforeAll(async () => {
  await ensureBuilt();
  emu = await startEmulator({ clock: "manual" });
}, 240_000);
afterAll(async () => {
  await emu?.close();
});

/**
 * Runs `svc db` under a pseudo-terminal (`script -qfec`), typing each answer once its prompt
 * appears. Resolves with the transcript and the exit code.
 */
function runInteractive(cwd: string, answers: ReadonlyArray<readonly [string, string]>): Promise<{ code: number | null; transcript: string }> {
  const command = [process.execPath, BIN, "db"].map((a) => `'${a}'`).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", `stty cols 120 rows 24; exec ${command}`, "/dev/null"], {
      cwd,
      env: childEnv({ SVC_CLAIM_API_HOST: emu.claimApiHost, SVC_NO_BROWSER: "1", TERM: "xterm-256color" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let transcript = "";
    let next = 0;
    let seen = 0;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      transcript += chunk;
      const answer = answers[next];
      if (answer === undefined) return;
      const at = transcript.indexOf(answer[0], seen);
      if (at < 0) return;
      seen = at + answer[0].length;
      next++;
      child.stdin.write(`${answer[1]}\r`);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, transcript }));
  });
}

describe("svc db on a terminal", () => {
  it("asks for env file, key, seed and prefix, then for another key when the first is taken", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-db-pty-"));
    writeFileSync(join(dir, ".env"), "DATABASE_URL=postgres://someone-elses\n");
    const run = await runInteractive(dir, [
      ["Env file (./.env): ", ""],
      ["Variable for the connection string (DATABASE_URL): ", ""],
      ["SQL file to seed it with (empty: none): ", ""],
      ["Prefix of the public variables (PUBLIC_): ", "APP_"],
      ["Another variable for the connection string (empty: stop): ", "DEV_DATABASE_URL"],
    ]);
    expect(run.transcript).toContain("DATABASE_URL is already set in ./.env (line 1).");
    expect(run.code).toBe(0);
    const values = parse(readFileSync(join(dir, ".env"), "utf8"));
    expect(Object.keys(values)).toEqual(["DATABASE_URL", "DEV_DATABASE_URL", "DEV_DATABASE_URL_DIRECT", "APP_POSTGRES_CLAIM_URL"]);
    expect(values["DATABASE_URL"]).toBe("postgres://someone-elses");
    expect(run.transcript).not.toContain("postgresql://");
  }, 60_000);

  it("exits 3 with nothing written when the other key is left empty", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-db-pty-"));
    const before = "export PUBLIC_POSTGRES_CLAIM_URL=\n";
    writeFileSync(join(dir, ".env"), before);
    const run = await runInteractive(dir, [
      ["Env file (./.env): ", ""],
      ["Variable for the connection string (DATABASE_URL): ", ""],
      ["SQL file to seed it with (empty: none): ", ""],
      ["Prefix of the public variables (PUBLIC_): ", ""],
      ["Another variable for the connection string (empty: stop): ", ""],
    ]);
    expect(run.code).toBe(3);
    expect(run.transcript).toContain("error PLATFORM_INSTANT_KEY_EXISTS: PUBLIC_POSTGRES_CLAIM_URL is already set in ./.env (line 1). Nothing was created.");
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(before);
  }, 60_000);
});
