import { parse } from "dotenv";
import { describe, expect, it } from "vitest";
import { createClaimableDatabase } from "../../../src/instant/client.js";
import { appendEnvBlock, formatEnvValue } from "../../../src/instant/env-file.js";

describe("env values", () => {
  const values = [
    "postgresql://u:p%2Fw@127.0.0.1:5432/db?sslmode=disable",
    "has space",
    'quote " and \\ backslash',
    "hash#value # not a comment",
    "it's",
    "it's a `tick`",
    "two\nlines\r\n",
    "  padded  ",
    "",
  ];
  it.each(values)("dotenv reads %j back unchanged", (value) => {
    expect(parse(`KEY=${formatEnvValue(value)}\nNEXT=1\n`)).toEqual({ KEY: value, NEXT: "1" });
  });

  it("writes URLs unquoted", () => {
    const url = "https://neon.new/claim/0197a3c2-0000-7000-8000-000000000000";
    expect(formatEnvValue(url)).toBe(url);
  });

  it.each(['\' ` " all three', 'a line\nbreak and a "quote"', "a line\nbreak and a \\n"])("refuses %j without showing it", (value) => {
    expect(() => formatEnvValue(value)).toThrow(expect.objectContaining({ code: "PLATFORM_INSTANT_ENV_FILE_INVALID", message: expect.not.stringContaining(value) }));
  });

  it("writes the block alone into an empty file, with no leading blank line", () => {
    expect(appendEnvBlock("", ["# a", "B=1"])).toBe("# a\nB=1\n");
    expect(appendEnvBlock(null, ["# a", "B=1"])).toBe("# a\nB=1\n");
  });
});

function record(id: string): Record<string, unknown> {
  return { id, status: "UNCLAIMED", connection_string: "postgresql://u:p@h-pooler.example/db", claim_url: `https://x/claim/${id}`, expires_at: "2030-01-01T00:00:00.000Z" };
}

/** A fake fetch answering from a script of statuses; the final entry creates the record. */
function scripted(statuses: number[]): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fake: typeof fetch = async (input) => {
    const url = String(input);
    calls.push(url);
    const status = statuses[calls.length - 1] ?? 201;
    const id = url.split("/").pop() ?? "";
    const body = status < 300 ? record(id) : { code: "x", message: `status ${status}`, request_id: `rid-${calls.length}` };
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "retry-after": "0" } });
  };
  return { fetch: fake, calls };
}

describe("the create client's retry policy", () => {
  const cases: Array<{ name: string; statuses: number[]; calls: number; error: string | null }> = [
    { name: "retries 503, 429 and 502 with the same id", statuses: [503, 429, 502, 201], calls: 4, error: null },
    { name: "gives up after four attempts", statuses: [500, 500, 500, 500], calls: 4, error: "PLATFORM_INSTANT_API_ERROR" },
    { name: "never retries a 400", statuses: [400], calls: 1, error: "PLATFORM_INSTANT_API_ERROR" },
  ];
  it.each(cases)("$name", async ({ statuses, calls, error }) => {
    const script = scripted(statuses);
    const outcome = createClaimableDatabase({ referrer: "unit", apiHost: "https://api.test", fetch: script.fetch });
    if (error === null) await outcome;
    else await expect(outcome).rejects.toMatchObject({ code: error });
    expect(script.calls).toHaveLength(calls);
    expect(new Set(script.calls).size).toBe(1);
  });

  it("rejects a record for another id as a bad response", async () => {
    const wrong: typeof fetch = async () => new Response(JSON.stringify(record("0197a3c2-0000-7000-8000-000000000000")), { status: 201, headers: { "content-type": "application/json" } });
    await expect(createClaimableDatabase({ referrer: "unit", apiHost: "https://api.test", fetch: wrong })).rejects.toMatchObject({ code: "PLATFORM_INSTANT_BAD_RESPONSE" });
  });

  it("never puts the connection string into an API error", async () => {
    const leaky: typeof fetch = async () => new Response(JSON.stringify({ code: "x", message: "boom" }), { status: 400, headers: { "content-type": "application/json" } });
    const err = await createClaimableDatabase({ referrer: "unit", apiHost: "https://api.test", fetch: leaky }).catch((e: unknown) => e as Error);
    expect(JSON.stringify(err)).not.toContain("postgresql://");
  });
});
