/**
 * `instantPostgres()`: create a claimable database, seed it, and write the env
 * file, with the server's values only.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { createClaimableDatabase, type ClaimableDatabaseRecord } from "./client.js";
import { appendEnvBlock, assertEnvTarget, assertKeysAbsent, envKeys, readEnvFile, renderEnvBlock, withEnvFileLock, writeEnvFileAtomic } from "./env-file.js";
import { runSeed } from "./seed-runner.js";
import { parseSeed, type SeedStatement } from "./seed-sql.js";

/** Options of {@link instantPostgres}. */
export interface InstantPostgresOptions {
  /** Names the app or tool; required, non-empty. */
  referrer: string;
  /** A SQL file to seed the database with, relative to `process.cwd()`. */
  seed?: { type: "sql-script"; path: string };
  /** Env file to write, or `false` to only return the values. @default ".env" */
  dotEnvFile?: string | false;
  /** @default "DATABASE_URL" */
  dotEnvKey?: string;
  /** @default "PUBLIC_" */
  envPrefix?: string;
  /** @default "https://neon.new" */
  apiHost?: string;
  /** @default false */
  logicalReplication?: boolean;
  signal?: AbortSignal;
  /** Sends every request through this `fetch`. @default Node's `http`/`https` with a keep-alive agent */
  fetch?: typeof fetch;
  /**
   * Called once the database exists, before seeding and the env write, so a tool can report an
   * orphan when a later step fails. The connection strings are secrets: never print them.
   */
  onCreated?: (created: InstantPostgresCreated) => void;
}

/** What {@link InstantPostgresOptions.onCreated} receives. */
export interface InstantPostgresCreated {
  /** The raw record the API returned. */
  readonly record: ClaimableDatabaseRecord;
  /** The direct connection string. */
  readonly databaseUrlDirect: string;
}

/** What {@link instantPostgres} returns. */
export interface InstantPostgresResult {
  /** Pooled connection string. */
  databaseUrl: string;
  /** Direct connection string (migrations, seeding). */
  databaseUrlDirect: string;
  /** The server's claim URL. */
  claimUrl: string;
  /** The server's expiry. */
  claimExpiresAt: Date;
  /** Database id (our addition). */
  id: string;
  /** Things the caller may want to show (e.g. an empty seed file); never secrets. */
  warnings: string[];
}

const KEY = /^[A-Z_][A-Z0-9_]*$/;
const PREFIX = /^[A-Z0-9_]*$/;

function invalidOption(message: string): PlatformError {
  return new PlatformError(ErrorCode.INSTANT_INVALID_OPTIONS, message);
}

/**
 * The direct URL: the server's `emulator.direct_connection_string`; else the pooled URL with
 * `-pooler` removed from the first hostname label; else the pooled URL and a warning.
 */
export function directUrlOf(record: ClaimableDatabaseRecord, warnings: string[]): string {
  const pooled = record.connection_string ?? "";
  const given = record.emulator?.direct_connection_string;
  if (typeof given === "string" && given !== "") return given;
  try {
    const url = new URL(pooled);
    const [first, ...rest] = url.hostname.split(".");
    if (first?.endsWith("-pooler")) {
      url.hostname = [first.slice(0, -"-pooler".length), ...rest].join(".");
      return url.toString();
    }
  } catch {
    // not a URL: fall through
  }
  warnings.push("the API gave no direct connection string and the pooled host has no -pooler label; the direct URL is the pooled one");
  return pooled;
}

async function readSeed(seed: InstantPostgresOptions["seed"], warnings: string[]): Promise<{ statements: SeedStatement[]; source: string; file: string } | null> {
  if (seed === undefined) return null;
  if (seed.type !== "sql-script" || typeof seed.path !== "string" || seed.path === "") throw invalidOption("seed must be { type: 'sql-script', path: '<file.sql>' }");
  let source: string;
  try {
    source = await readFile(path.resolve(process.cwd(), seed.path), "utf8");
  } catch (err) {
    throw new PlatformError(ErrorCode.INSTANT_SEED_INVALID, `cannot read the seed file ${seed.path}: ${(err as Error).message}`, { details: { file: seed.path }, cause: err });
  }
  const statements = parseSeed(source, seed.path);
  if (statements.length === 0) warnings.push(`${seed.path} has no SQL statements; nothing was seeded`);
  return { statements, source: source.replace(/^\uFEFF/, ""), file: seed.path };
}

/**
 * Creates a claimable Postgres database, seeds it when asked, and writes the three variables to
 * the env file (never replacing one: an existing name throws `PLATFORM_INSTANT_KEY_EXISTS` before
 * anything is created). The env file is written only after a successful seed.
 */
export async function instantPostgres(options: InstantPostgresOptions): Promise<InstantPostgresResult> {
  if (typeof options?.referrer !== "string" || options.referrer.trim() === "") {
    throw invalidOption("referrer is required: a non-empty string naming the app or tool that creates the database");
  }
  const key = options.dotEnvKey ?? "DATABASE_URL";
  const prefix = options.envPrefix ?? "PUBLIC_";
  if (!KEY.test(key)) throw invalidOption(`dotEnvKey "${key}" must match ^[A-Z_][A-Z0-9_]*$`);
  if (!PREFIX.test(prefix)) throw invalidOption(`envPrefix "${prefix}" must match ^[A-Z0-9_]*$`);
  const dotEnvFile = options.dotEnvFile ?? ".env";
  if (dotEnvFile !== false && (typeof dotEnvFile !== "string" || dotEnvFile === "")) throw invalidOption("dotEnvFile must be a path or false");
  const warnings: string[] = [];
  const seed = await readSeed(options.seed, warnings);
  const keys = envKeys(key, prefix);

  const provision = async (): Promise<{ record: ClaimableDatabaseRecord; direct: string }> => {
    const record = await createClaimableDatabase({
      referrer: options.referrer,
      ...(options.logicalReplication !== undefined ? { logicalReplication: options.logicalReplication } : {}),
      ...(options.apiHost !== undefined ? { apiHost: options.apiHost } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    });
    const direct = directUrlOf(record, warnings);
    options.onCreated?.({ record, databaseUrlDirect: direct });
    if (seed !== null) {
      await runSeed(direct, seed.statements, { file: seed.file, source: seed.source, databaseId: record.id, claimUrl: record.claim_url, expiresAt: record.expires_at ?? "" });
    }
    return { record, direct };
  };

  let created: { record: ClaimableDatabaseRecord; direct: string };
  if (dotEnvFile === false) created = await provision();
  else {
    const file = path.resolve(process.cwd(), dotEnvFile);
    // Everything that can fail offline fails before the database exists: no orphan on a typo.
    assertEnvTarget(file, dotEnvFile);
    created = await withEnvFileLock(file, async () => {
      assertKeysAbsent(await readEnvFile(file, dotEnvFile), keys, dotEnvFile);
      const result = await provision();
      const { record } = result;
      const context = { databaseId: record.id, claimUrl: record.claim_url };
      const current = await readEnvFile(file, dotEnvFile);
      assertKeysAbsent(current, keys, dotEnvFile, context);
      const block = renderEnvBlock(keys, {
        id: record.id,
        createdAt: record.created_at ?? "",
        expiresAt: record.expires_at ?? "",
        databaseUrl: record.connection_string ?? "",
        databaseUrlDirect: result.direct,
        claimUrl: record.claim_url,
      });
      await writeEnvFileAtomic(file, appendEnvBlock(current.text, block), dotEnvFile);
      return result;
    });
  }
  const { record, direct } = created;
  return {
    databaseUrl: record.connection_string ?? "",
    databaseUrlDirect: direct,
    claimUrl: record.claim_url,
    claimExpiresAt: new Date(record.expires_at ?? Number.NaN),
    id: record.id,
    warnings,
  };
}
