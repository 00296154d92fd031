/**
 * What `svc db` prints: the human lines (never a connection string), the
 * JSON documents, the error block and the exit codes of the instant errors.
 */
import { printedLines, type Printed } from "../views/outside-text.js";
import { isCliError } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/index.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { ClaimableDatabaseRecord } from "../../instant/client.js";
import type { EnvKeys } from "../../instant/env-file.js";
import { describeError, exitCodeFor, renderErrorText, toJsonError } from "../views/error-view.js";
import type { JsonError } from "../views/json-schema.js";

/** The database fields of the `svc db --json` documents. */
export interface DbDocumentFields {
  id: string;
  status: string;
  databaseUrl: string | null;
  databaseUrlDirect: string | null;
  claimUrl: string;
  expiresAt: string | null;
  envFile: string;
  keys: { url: string; direct: string; claimUrl: string };
  seeded: boolean;
  gitIgnored: boolean | null;
  warnings: string[];
}

/** The database fields for a record (also for an orphan after a failed seed). */
export function documentFields(record: ClaimableDatabaseRecord, direct: string | null, envFile: string, keys: EnvKeys, extra: { seeded: boolean; gitIgnored: boolean | null; warnings: string[] }): DbDocumentFields {
  return {
    id: record.id,
    status: record.status,
    databaseUrl: record.connection_string,
    databaseUrlDirect: direct,
    claimUrl: record.claim_url,
    expiresAt: record.expires_at,
    envFile,
    keys: { url: keys.url, direct: keys.direct, claimUrl: keys.claimUrl },
    ...extra,
  };
}

/** `2025-06-04 12:00 UTC` from an ISO timestamp. */
export function shortUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `in 72 hours`, `in 5 minutes`, or `already` for a past time. */
export function relativeTime(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  if (!Number.isFinite(ms) || ms <= 0) return "already";
  if (ms >= 3_600_000) {
    const hours = Math.round(ms / 3_600_000);
    return `in ${hours} hour${hours === 1 ? "" : "s"}`;
  }
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return `in ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The three human lines of a successful `svc db` (no connection string). */
export function successLines(fields: DbDocumentFields, now: number): Printed {
  const expiry = fields.expiresAt === null ? "It does not expire." : `It expires ${shortUtc(fields.expiresAt)} (${relativeTime(fields.expiresAt, now)}).`;
  return printedLines([
    `Created a claimable Postgres 17 database. ${expiry}`,
    `Wrote ${fields.keys.url} (pooled), ${fields.keys.direct} (direct) and ${fields.keys.claimUrl} to ${fields.envFile}`,
    `Claim it to keep it: ${fields.claimUrl}   (or run: svc db claim)`,
  ]);
}

function detailsOf(err: unknown): Record<string, unknown> {
  const details = typeof err === "object" && err !== null ? (err as { details?: unknown }).details : undefined;
  return typeof details === "object" && details !== null ? (details as Record<string, unknown>) : {};
}

/** The exit code of an error of `svc db`. */
export function dbExitCode(err: unknown): number {
  if (isPlatformError(err)) {
    if (err.code === ErrorCode.INSTANT_KEY_EXISTS) return 3;
    if (err.code === ErrorCode.INSTANT_SEED_FAILED) return 7;
  }
  return exitCodeFor(err);
}

/** The error block with the instant error's own hint and the failing statement. */
export function dbErrorText(err: unknown, verbose: boolean): Printed {
  const view = describeError(err);
  const details = detailsOf(err);
  const hint = typeof details["hint"] === "string" ? details["hint"] : view.hint;
  const text = renderErrorText({ ...view, hint: isCliError(err) ? view.hint : hint }, verbose);
  const excerpt = details["excerpt"];
  if (typeof excerpt !== "string" || excerpt === "") return text;
  const [first = "", ...rest] = text.replace(/\n$/, "").split("\n");
  return printedLines([first, `  > ${excerpt}`, ...rest]);
}

/** The error in the JSON documents, with the instant error's own hint. */
export function dbJsonError(err: unknown): JsonError {
  const view = describeError(err);
  const hint = detailsOf(err)["hint"];
  return toJsonError({ ...view, hint: typeof hint === "string" && !isCliError(err) ? hint : view.hint });
}
