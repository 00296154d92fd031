import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../../src/errors/index.js";
import { parseSeed, splitStatements } from "../../../src/instant/seed-sql.js";

function texts(source: string): string[] {
  return splitStatements(source, "seed.sql").map((s) => s.text);
}

describe("splitting a seed into statements", () => {
  const cases: Array<{ name: string; source: string; expected: string[] }> = [
    { name: "plain statements", source: "CREATE TABLE a (x int);\nINSERT INTO a VALUES (1);", expected: ["CREATE TABLE a (x int)", "INSERT INTO a VALUES (1)"] },
    { name: "a semicolon inside a string", source: "INSERT INTO a VALUES ('x;y');SELECT 1", expected: ["INSERT INTO a VALUES ('x;y')", "SELECT 1"] },
    { name: "a doubled quote", source: "SELECT 'it''s; fine';", expected: ["SELECT 'it''s; fine'"] },
    { name: "an E string with a backslash-escaped quote", source: "SELECT E'a\\';b';", expected: ["SELECT E'a\\';b'"] },
    { name: "a quoted identifier with a semicolon", source: 'CREATE TABLE "we;ird" (x int);', expected: ['CREATE TABLE "we;ird" (x int)'] },
    { name: "a dollar-quoted function body", source: "CREATE FUNCTION f() RETURNS int AS $body$ BEGIN; RETURN 1; END; $body$ LANGUAGE plpgsql;\nSELECT f();", expected: ["CREATE FUNCTION f() RETURNS int AS $body$ BEGIN; RETURN 1; END; $body$ LANGUAGE plpgsql", "SELECT f()"] },
    { name: "an anonymous dollar quote", source: "DO $$ BEGIN PERFORM 1; END $$;", expected: ["DO $$ BEGIN PERFORM 1; END $$"] },
    { name: "a positional parameter is not a dollar quote", source: "PREPARE p AS SELECT $1; SELECT 2;", expected: ["PREPARE p AS SELECT $1", "SELECT 2"] },
    { name: "line and nested block comments", source: "-- a; comment\n/* outer /* inner; */ still; */ SELECT 1; -- trailing;\n", expected: ["SELECT 1"] },
    { name: "only comments", source: "-- nothing here;\n/* nor here */", expected: [] },
  ];
  it.each(cases)("handles $name", ({ source, expected }) => {
    expect(texts(source)).toEqual(expected);
  });

  it("records the line and column where each statement starts", () => {
    const statements = splitStatements("\n  -- setup\n  CREATE TABLE t (x int);\n\nINSERT INTO t\nVALUES (1);", "seed.sql");
    expect(statements.map((s) => [s.line, s.column])).toEqual([[3, 3], [5, 1]]);
  });
});

describe("rejecting seeds that cannot run", () => {
  const cases: Array<{ name: string; source: string; where: string; message: RegExp }> = [
    { name: "an unterminated string", source: "SELECT 1;\nSELECT 'oops;", where: "seed.sql:2:8", message: /unterminated quoted string/ },
    { name: "an unterminated block comment", source: "/* a /* b */ SELECT 1;", where: "seed.sql:1:1", message: /unterminated \/\* comment/ },
    { name: "an unterminated dollar quote", source: "DO $x$ BEGIN", where: "seed.sql:1:4", message: /unterminated dollar-quoted string \$x\$/ },
    { name: "a psql meta-command", source: "\\connect other;", where: "seed.sql:1:1", message: /psql meta-commands/ },
    { name: "COPY FROM STDIN", source: "SELECT 1;\n COPY t (x) FROM STDIN;", where: "seed.sql:2:2", message: /COPY … FROM STDIN/ },
    { name: "BEGIN", source: "BEGIN;\nSELECT 1;", where: "seed.sql:1:1", message: /already runs in one transaction/ },
    { name: "START TRANSACTION", source: "start  transaction;", where: "seed.sql:1:1", message: /START TRANSACTION is not allowed/ },
    { name: "COMMIT", source: "SELECT 1;\nCOMMIT;", where: "seed.sql:2:1", message: /COMMIT is not allowed/ },
  ];
  it.each(cases)("rejects $name at its position", ({ source, where, message }) => {
    let caught: unknown;
    try {
      parseSeed(source, "seed.sql");
    } catch (err) {
      caught = err;
    }
    expect(isPlatformError(caught, "PLATFORM_INSTANT_SEED_INVALID")).toBe(true);
    expect((caught as Error).message.startsWith(`${where}: `)).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });

  it("strips a byte-order mark before splitting", () => {
    expect(parseSeed("\uFEFFSELECT 1;", "seed.sql").map((s) => [s.text, s.line, s.column])).toEqual([["SELECT 1", 1, 1]]);
  });
});
