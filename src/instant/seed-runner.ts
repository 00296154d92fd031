/**
 * Running a parsed seed over the direct URL in one transaction. The first failing
 * statement rolls everything back and is named with its file position.
 */
import type { Client, ClientConfig } from "pg";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { lineAndColumn, type SeedStatement } from "./seed-sql.js";

/** Where the seed runs and what the failure message may mention. */
export interface SeedRunContext {
  /** The seed file as the user named it (`seed.sql`). */
  readonly file: string;
  /** The file text after the BOM was stripped (positions are mapped against it). */
  readonly source: string;
  readonly databaseId: string;
  readonly claimUrl: string;
  readonly expiresAt: string;
}

type ClientConstructor = new (config: ClientConfig) => Client;

async function loadClient(): Promise<ClientConstructor> {
  try {
    return (await import("pg")).default.Client;
  } catch (err) {
    throw new PlatformError(ErrorCode.INSTANT_SEED_FAILED, "seeding needs the optional package pg: npm i pg@8.23.1", { cause: err });
  }
}

/** `2025-06-04 12:00 UTC` from an ISO timestamp. */
export function shortUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const NOT_IN_TRANSACTION =
  "CREATE DATABASE, VACUUM and CREATE INDEX CONCURRENTLY cannot run inside a transaction, and the seed runs in one; run such statements separately after svc db. ";

/**
 * Runs `BEGIN`, each statement, `COMMIT` on one connection to `directUrl` (30 s connect timeout,
 * no statement timeout). On a failure: `ROLLBACK` and `PLATFORM_INSTANT_SEED_FAILED` naming
 * `file:line:col`, the statement number and SQLSTATE; the URL never appears in the error.
 */
export async function runSeed(directUrl: string, statements: readonly SeedStatement[], context: SeedRunContext): Promise<void> {
  if (statements.length === 0) return;
  const Client = await loadClient();
  const client = new Client({ connectionString: directUrl, connectionTimeoutMillis: 30_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new PlatformError(ErrorCode.INSTANT_SEED_FAILED, `${context.file}: cannot connect to the new database to seed it: ${(err as Error).message}`, {
      details: { databaseId: context.databaseId, claimUrl: context.claimUrl },
      cause: err,
    });
  }
  try {
    await client.query("BEGIN");
    for (const [index, statement] of statements.entries()) {
      try {
        await client.query(statement.text);
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw seedFailure(err, index, statements.length, statement, context);
      }
    }
    await client.query("COMMIT");
  } finally {
    await client.end().catch(() => undefined);
  }
}

function seedFailure(err: unknown, index: number, total: number, statement: SeedStatement, context: SeedRunContext): PlatformError {
  const pgError = err as { message?: string; code?: string; position?: string };
  const position = Number(pgError.position);
  const where = Number.isInteger(position) && position > 0 ? lineAndColumn(context.source, statement.offset + position - 1) : { line: statement.line, column: statement.column };
  const sqlstate = typeof pgError.code === "string" ? pgError.code : "unknown";
  const hint =
    (sqlstate === "25001" ? NOT_IN_TRANSACTION : "") +
    `Nothing from ${context.file} was kept. The empty database ${context.databaseId} remains until ${shortUtc(context.expiresAt)}; fix the file and run svc db again (this creates a new database).`;
  const excerpt = (statement.text.split("\n")[0] ?? "").slice(0, 200);
  return new PlatformError(
    ErrorCode.INSTANT_SEED_FAILED,
    `${context.file}:${where.line}:${where.column}: statement ${index + 1} of ${total} failed: ${pgError.message ?? String(err)} (SQLSTATE ${sqlstate})`,
    {
      details: { file: context.file, line: where.line, column: where.column, statement: index + 1, total, sqlstate, excerpt, hint, databaseId: context.databaseId, claimUrl: context.claimUrl },
      cause: err,
    },
  );
}
