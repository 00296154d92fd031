/**
 * The env file the SDK and `svc db` write: checking for existing
 * variables, rendering the block, and writing it atomically.
 */
import { readFile, stat } from "node:fs/promises";
import { parse } from "dotenv";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { localWriteIssue, writeFileAtomically } from "../rules/local-file.js";
import { escapeUnsafeText, findUnsafeCharacter, UNSAFE_CHARACTER_MESSAGES } from "../rules/visible-text.js";

/** The three variable names the block writes. */
export interface EnvKeys {
  /** Pooled connection string, e.g. `DATABASE_URL`. */
  readonly url: string;
  /** Direct connection string, `<url>_DIRECT`. */
  readonly direct: string;
  /** Claim URL, `<prefix>POSTGRES_CLAIM_URL`. */
  readonly claimUrl: string;
}

/** The names for a key and prefix. */
export function envKeys(key: string, prefix: string): EnvKeys {
  return { url: key, direct: `${key}_DIRECT`, claimUrl: `${prefix}POSTGRES_CLAIM_URL` };
}

/** An env file as read before writing: its text (null when absent) and the names it assigns. */
export interface EnvFileState {
  readonly text: string | null;
  /** Assigned names (with or without `export`, empty values included) and their first line. */
  readonly assigned: ReadonlyMap<string, number>;
}

/**
 * Reads the env file. Missing → empty; not UTF-8 text, a directory, or unreadable →
 * `PLATFORM_INSTANT_ENV_FILE_INVALID`. Names come from `dotenv`'s parser (what the app will
 * see); line numbers from a plain scan.
 */
export async function readEnvFile(file: string, display: string): Promise<EnvFileState> {
  let bytes: Buffer;
  try {
    // A FIFO or a device would block the read, or never end: only a regular file is read.
    const kind = await stat(file);
    if (!kind.isFile()) throw Object.assign(new Error(kind.isDirectory() ? "it is a directory" : "it is not a regular file (a FIFO or a device)"), { code: kind.isDirectory() ? "EISDIR" : "ENOTREG" });
    bytes = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { text: null, assigned: new Map() };
    const reason = code === "EISDIR" ? "it is a directory" : (err as Error).message;
    throw new PlatformError(ErrorCode.INSTANT_ENV_FILE_INVALID, `cannot use ${display} as the env file: ${reason}. Give the path of a text file.`, { details: { file: display } });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new PlatformError(ErrorCode.INSTANT_ENV_FILE_INVALID, `${display} is not UTF-8 text; give the path of a .env file.`, { details: { file: display } });
  }
  const names = Object.keys(parse(text.startsWith("\uFEFF") ? text.slice(1) : text));
  const assigned = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const name of names) {
    const pattern = new RegExp(`^\\s*(?:export\\s+)?${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*[=:]`);
    const index = lines.findIndex((line) => pattern.test(line));
    assigned.set(name, index + 1);
  }
  return { text, assigned };
}

/** Throws `PLATFORM_INSTANT_KEY_EXISTS` when any of the three names is assigned in the file. */
export function assertKeysAbsent(state: EnvFileState, keys: EnvKeys, display: string, details: Record<string, unknown> = {}): void {
  for (const name of [keys.url, keys.direct, keys.claimUrl]) {
    const line = state.assigned.get(name);
    if (line === undefined) continue;
    const where = line > 0 ? `${display} (line ${line})` : display;
    const message =
      details["databaseId"] === undefined
        ? `${name} is already set in ${where}. Nothing was created.`
        : `${name} appeared in ${where} while database ${String(details["databaseId"])} was being created; the env file was not changed. Claim or use the database at ${String(details["claimUrl"])}.`;
    throw new PlatformError(ErrorCode.INSTANT_KEY_EXISTS, message, {
      details: { ...details, file: display, key: name, line, hint: `use -k DEV_${keys.url} or -e .env.development, or remove the lines yourself` },
    });
  }
}

/** What the block says about the database. */
export interface EnvBlockValues {
  readonly id: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly databaseUrl: string;
  readonly databaseUrlDirect: string;
  readonly claimUrl: string;
}

const PLAIN_VALUE = /^[A-Za-z0-9_.:/@?=&%+~,-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/*
 * The edge of every env file writer (`svc db`, the SDK, `--write-env`): each line it adds is made
 * by envAssignment or envComment, so text from outside (a live role's name, a database id, a URL)
 * can never start a line of its own.
 */

/**
 * `NAME=value`, with the value quoted by {@link formatEnvValue}. A name that is not a plain
 * variable name is refused (nothing of it reaches the file).
 */
export function envAssignment(name: string, value: string): string {
  if (!ENV_NAME.test(name)) {
    throw new PlatformError(ErrorCode.INSTANT_ENV_FILE_INVALID, `"${escapeUnsafeText(name)}" is not a variable name (letters, digits and _, not starting with a digit); nothing was written.`, { details: { key: escapeUnsafeText(name) } });
  }
  return `${name}=${formatEnvValue(value)}`;
}

/** A `# …` comment line: unsafe characters in `text` (line breaks included) appear as `\uXXXX`. */
export function envComment(text: string): string {
  return `# ${escapeUnsafeText(text)}`;
}

/**
 * A value as written so that dotenv reads it back unchanged: unquoted when plain, else between the
 * first of `'`, `` ` `` it does not contain (dotenv takes both literally), else between `"` (where
 * dotenv turns `\n` and `\r` into line breaks, so a line break is written that way). A value no
 * quoting can carry, or holding a control, bidirectional or zero-width character other than a
 * line break, is refused; the message names the character, never the value (it may be a secret).
 */
export function formatEnvValue(value: string): string {
  if (PLAIN_VALUE.test(value)) return value;
  const unsafe = findUnsafeCharacter(value.replace(/[\r\n]/g, ""));
  if (unsafe !== null) {
    throw new PlatformError(ErrorCode.INSTANT_ENV_FILE_INVALID, `a value to write holds ${UNSAFE_CHARACTER_MESSAGES[unsafe.kind]} (${unsafe.escaped}); nothing was written.`);
  }
  const breaks = /[\r\n]/.test(value);
  const quote = breaks ? undefined : ["'", "`"].find((q) => !value.includes(q));
  if (quote !== undefined) return `${quote}${value}${quote}`;
  if (!value.includes('"') && !/\\[nr]/.test(value)) return `"${value.replace(/\r/g, "\\r").replace(/\n/g, "\\n")}"`;
  throw new PlatformError(
    ErrorCode.INSTANT_ENV_FILE_INVALID,
    "a value to write holds characters no dotenv quoting can carry together (quotes of every kind, or a line break with a quote or an escape); nothing was written.",
  );
}

/** The block's lines (without line endings). Expiry and claim URL are the server's values. */
export function renderEnvBlock(keys: EnvKeys, values: EnvBlockValues): string[] {
  const expires = new Date(values.expiresAt);
  return [
    envComment(`svc db: claimable Postgres database ${values.id}, created ${values.createdAt}`),
    envAssignment(keys.url, values.databaseUrl),
    envAssignment(keys.direct, values.databaseUrlDirect),
    envComment(`Expires ${values.expiresAt} (${Number.isNaN(expires.getTime()) ? values.expiresAt : expires.toUTCString()}) unless claimed.`),
    envComment("Claim it into your account with the link below, or run: svc db claim"),
    envAssignment(keys.claimUrl, values.claimUrl),
  ];
}

/**
 * The new file text: the existing text with a final newline added, a blank line, then the block;
 * line endings follow the file (CRLF when its first break is CRLF); a BOM is kept.
 */
export function appendEnvBlock(existing: string | null, block: readonly string[]): string {
  const text = existing ?? "";
  const firstBreak = text.indexOf("\n");
  const eol = firstBreak > 0 && text[firstBreak - 1] === "\r" ? "\r\n" : "\n";
  const body = text.replace(/^\uFEFF/, "");
  let out = text;
  if (body.length > 0 && !text.endsWith("\n")) out += eol;
  if (body.length > 0) out += eol;
  return out + block.join(eol) + eol;
}

/**
 * The env file must be a place a write can go (`PLATFORM_INSTANT_ENV_FILE_INVALID` otherwise): a
 * regular file or absent, in an existing writable directory; never a symbolic link, a directory
 * or a FIFO. Checked before a database is created, so a typo never leaves an orphan database,
 * and again on write.
 */
export function assertEnvTarget(file: string, display: string): void {
  const issue = localWriteIssue(file);
  if (issue !== null) throw new PlatformError(ErrorCode.INSTANT_ENV_FILE_INVALID, `cannot use ${display} as the env file: it ${issue}.`, { details: { file: display } });
}

/** Options of {@link writeEnvFileAtomic}. */
export interface WriteEnvFileOptions {
  /** The mode the file gets even when it exists (`--write-env` forces 0600). @default an existing file's own mode, 0600 for a new one */
  readonly mode?: number;
}

/**
 * Writes `text` atomically (`writeFileAtomically`: a temp file in the same directory, then a
 * rename). An existing file keeps its mode unless `options.mode` forces one; a new one gets 0600.
 * A target {@link assertEnvTarget} refuses, or a failed write, is `PLATFORM_INSTANT_ENV_FILE_INVALID`
 * (a typo never creates directories). Returns the mode the file had before, or null when it is new.
 */
export async function writeEnvFileAtomic(file: string, text: string, display: string, options: WriteEnvFileOptions = {}): Promise<number | null> {
  assertEnvTarget(file, display);
  try {
    return writeFileAtomically(file, text, options.mode === undefined ? {} : { mode: options.mode });
  } catch (err) {
    throw new PlatformError(ErrorCode.INSTANT_ENV_FILE_INVALID, `cannot write ${display}: ${(err as Error).message}`, { details: { file: display }, cause: err });
  }
}

const locks = new Map<string, Promise<unknown>>();

/** Runs `task` while holding the in-process lock of an absolute path (check to write). */
export async function withEnvFileLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  const previous = locks.get(file) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.catch(() => undefined);
  locks.set(file, settled);
  try {
    return await run;
  } finally {
    if (locks.get(file) === settled) locks.delete(file);
  }
}
