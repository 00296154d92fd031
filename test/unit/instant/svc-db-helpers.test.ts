import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findClaimUrl } from "../../../src/cli/db/claim-url.js";
import { parseDbOptions, resolveApiHost } from "../../../src/cli/db/db-options.js";
import { dbExitCode, relativeTime, successLines } from "../../../src/cli/db/db-output.js";
import { mayOpenBrowser, openerFor } from "../../../src/cli/db/open-browser.js";
import { ErrorCode, PlatformError } from "../../../src/errors/index.js";

const ID = "0197a3c2-0000-7000-8000-000000000001";

function envFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "svc-db-unit-")), ".env");
  writeFileSync(file, text);
  return file;
}

describe("svc db claim finds the claim URL", () => {
  it.each<[string, string, string | undefined, string]>([
    ["the public name by default", `PUBLIC_POSTGRES_CLAIM_URL=https://neon.new/claim/${ID}\nVITE_POSTGRES_CLAIM_URL=https://x/claim/other\n`, undefined, "PUBLIC_POSTGRES_CLAIM_URL"],
    ["the only *POSTGRES_CLAIM_URL without a prefix", `VITE_POSTGRES_CLAIM_URL=https://neon.new/claim/${ID}\n`, undefined, "VITE_POSTGRES_CLAIM_URL"],
    ["exactly the prefixed name with -p", `PUBLIC_POSTGRES_CLAIM_URL=https://a/claim/x\nVITE_POSTGRES_CLAIM_URL=https://neon.new/claim/${ID}\n`, "VITE_", "VITE_POSTGRES_CLAIM_URL"],
    ["an empty prefix", `POSTGRES_CLAIM_URL=https://neon.new/claim/${ID}\n`, "", "POSTGRES_CLAIM_URL"],
  ])("takes %s", async (_name, text, prefix, key) => {
    expect(await findClaimUrl(envFile(text), ".env", prefix)).toEqual({ key, url: `https://neon.new/claim/${ID}`, id: ID });
  });

  it.each<[string, string, string | undefined, RegExp]>([
    ["several candidates", `A_POSTGRES_CLAIM_URL=https://x/claim/${ID}\nB_POSTGRES_CLAIM_URL=https://x/claim/${ID}\n`, undefined, /several claim URLs: A_POSTGRES_CLAIM_URL, B_POSTGRES_CLAIM_URL/],
    ["none", "DATABASE_URL=x\n", undefined, /no PUBLIC_POSTGRES_CLAIM_URL in \.env$/],
    ["a prefixed name that is missing", `PUBLIC_POSTGRES_CLAIM_URL=https://x/claim/${ID}\n`, "VITE_", /no VITE_POSTGRES_CLAIM_URL in \.env$/],
    ["a URL without an id", "PUBLIC_POSTGRES_CLAIM_URL=https://x/claim/\n", undefined, /is not a claim URL ending in a database id/],
  ])("refuses %s with PLATFORM_INSTANT_CLAIM_URL_NOT_FOUND", async (_name, text, prefix, message) => {
    await expect(findClaimUrl(envFile(text), ".env", prefix)).rejects.toMatchObject({ code: ErrorCode.INSTANT_CLAIM_URL_NOT_FOUND, message: expect.stringMatching(message) });
  });
});

describe("svc db options", () => {
  it("applies the seed's defaults and SVC_CLAIM_API_HOST", () => {
    expect(parseDbOptions({}, { SVC_CLAIM_API_HOST: "http://127.0.0.1:4000/api/v1" })).toMatchObject({ ref: "svc-config/cli", apiHost: "http://127.0.0.1:4000", yes: false, json: false, logicalReplication: false });
    expect(parseDbOptions({}, {}).apiHost).toBe("https://neon.new");
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["a lower-case key", { key: "db_url" }, /--key "db_url" must be an upper-case variable name/],
    ["a prefix with a dash", { prefix: "MY-" }, /--prefix "MY-" must match/],
    ["an empty referrer", { ref: "  " }, /--ref must be a non-empty referrer/],
    ["an api host that is not http", { apiHost: "ftp://x" }, /must be an http: or https: URL/],
  ])("rejects %s", (_name, opts, message) => {
    expect(() => parseDbOptions(opts, {})).toThrow(message);
  });

  it("does not consult SVC_CLAIM_API_HOST for claim, whose fallback is the claim URL's origin", () => {
    expect(resolveApiHost(undefined, { SVC_CLAIM_API_HOST: "http://emulator" }, "https://neon.new/")).toBe("https://neon.new");
    expect(resolveApiHost(undefined, { SVC_CLAIM_API_HOST: "http://emulator:1" }, "https://origin.test")).toBe("https://origin.test");
  });
});

describe("svc db output", () => {
  it("maps the instant errors to the exit codes svc db documents", () => {
    expect(dbExitCode(new PlatformError(ErrorCode.INSTANT_KEY_EXISTS, "x"))).toBe(3);
    expect(dbExitCode(new PlatformError(ErrorCode.INSTANT_SEED_FAILED, "x"))).toBe(7);
    expect(dbExitCode(new PlatformError(ErrorCode.INSTANT_API_ERROR, "x"))).toBe(1);
    expect(dbExitCode(new PlatformError(ErrorCode.CANCELLED, "x"))).toBe(130);
  });

  it("prints the three lines without a connection string", () => {
    const text = successLines(
      { id: ID, status: "UNCLAIMED", databaseUrl: "postgresql://u:secret@h/db", databaseUrlDirect: "postgresql://u:secret@h2/db", claimUrl: `https://neon.new/claim/${ID}`, expiresAt: "2025-06-04T12:00:00.000Z", envFile: ".env", keys: { url: "DATABASE_URL", direct: "DATABASE_URL_DIRECT", claimUrl: "PUBLIC_POSTGRES_CLAIM_URL" }, seeded: false, gitIgnored: true, warnings: [] },
      Date.parse("2025-06-01T12:00:00.000Z"),
    );
    expect(text).toBe(
      "Created a claimable Postgres 17 database. It expires 2025-06-04 12:00 UTC (in 72 hours).\n" +
        "Wrote DATABASE_URL (pooled), DATABASE_URL_DIRECT (direct) and PUBLIC_POSTGRES_CLAIM_URL to .env\n" +
        `Claim it to keep it: https://neon.new/claim/${ID}   (or run: svc db claim)\n`,
    );
    expect(relativeTime("2025-06-01T12:30:00.000Z", Date.parse("2025-06-01T12:00:00.000Z"))).toBe("in 30 minutes");
  });
});

describe("svc db claim opens a browser", () => {
  it.each<[string, boolean, Record<string, string>, NodeJS.Platform, boolean]>([
    ["an interactive Linux desktop", true, { DISPLAY: ":0" }, "linux", true],
    ["Linux without a display", true, {}, "linux", false],
    ["SVC_NO_BROWSER", true, { SVC_NO_BROWSER: "1", DISPLAY: ":0" }, "linux", false],
    ["a non-interactive run", false, { DISPLAY: ":0" }, "linux", false],
    ["macOS", true, {}, "darwin", true],
  ])("decides for %s", (_name, interactive, env, platform, expected) => {
    expect(mayOpenBrowser(interactive, env, platform)).toBe(expected);
  });

  it("uses open, start or xdg-open", () => {
    expect(openerFor("darwin", "u").command).toBe("open");
    expect(openerFor("win32", "u")).toEqual({ command: "cmd", args: ["/c", "start", '""', "u"] });
    expect(openerFor("linux", "u").command).toBe("xdg-open");
  });
});
