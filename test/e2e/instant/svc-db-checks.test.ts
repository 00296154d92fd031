import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runSvc } from "../cli/harness.js";

/** A claim API that counts requests: any request means a database could have been created. */
let requests = 0;
let server: Server;
let host = "";

beforeAll(async () => {
  await ensureBuilt();
  server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe("svc db checks everything that can fail offline before it creates a database", () => {
  it.each([
    ["an env file in a directory that does not exist", (dir: string) => ["-e", join(dir, "nodir", ".env")], "error PLATFORM_INSTANT_ENV_FILE_INVALID: cannot use", 1],
    ["the same file given as --write-env", (dir: string) => ["--write-env", join(dir, "nodir", ".env")], "error PLATFORM_INSTANT_ENV_FILE_INVALID: cannot use", 1],
    ["--write-env and -e naming two files", (dir: string) => ["--write-env", join(dir, ".env"), "-e", join(dir, ".env.local")], "error PLATFORM_INSTANT_INVALID_OPTIONS: --write-env", 1],
    ["a seed file that cannot be read", (dir: string) => ["-e", join(dir, ".env"), "-s", join(dir, "missing.sql")], "error PLATFORM_INSTANT_SEED_INVALID: cannot read the seed file", 1],
    [
      "a variable the env file already has",
      (dir: string) => {
        writeFileSync(join(dir, ".env"), "DATABASE_URL=postgres://kept\n");
        return ["-e", join(dir, ".env")];
      },
      "error PLATFORM_INSTANT_KEY_EXISTS",
      3,
    ],
  ])("%s: refused with no request to the claim API", async (_name, args, message, code) => {
    const dir = mkdtempSync(join(tmpdir(), "svc-db-checks-"));
    const before = requests;
    const run = await runSvc(["db", "--yes", ...args(dir)], { cwd: dir, env: { SVC_CLAIM_API_HOST: host, SVC_NO_BROWSER: "1" } });
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/Database \S+ was created/);
    expect(run.code).toBe(code);
    expect(requests).toBe(before);
  });
});
