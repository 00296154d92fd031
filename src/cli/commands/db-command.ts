/**
 * `svc db` and `svc db claim`: create a claimable Postgres database through the
 * SDK, seed it, write the env block, and check or open the claim URL.
 */
import path from "node:path";
import { ErrorCode, PlatformError } from "../../errors/index.js";
import { isPlatformError } from "../../errors/platform-error.js";
import { getClaimableDatabase } from "../../instant/client.js";
import { assertEnvTarget, assertKeysAbsent, envKeys, readEnvFile } from "../../instant/env-file.js";
import { isGitIgnored, notIgnoredWarning } from "../../instant/git-ignore.js";
import { instantPostgres, type InstantPostgresCreated } from "../../instant/instant-postgres.js";
import type { CommandContext } from "../context.js";
import { checkLocalWrites } from "../files.js";
import { createProxyAwareFetch } from "../http.js";
import { findClaimUrl } from "../db/claim-url.js";
import { checkEnvPath, checkKey, checkPrefix, DEFAULT_ENV_FILE, DEFAULT_KEY, DEFAULT_PREFIX, parseDbOptions, resolveApiHost, writtenEnvFile } from "../db/db-options.js";
import { dbErrorText, dbExitCode, dbJsonError, documentFields, relativeTime, shortUtc, successLines, type DbDocumentFields } from "../db/db-output.js";
import { askLine } from "../db/line-prompt.js";
import { mayOpenBrowser, openBrowser } from "../db/open-browser.js";
import { stringifyDocument } from "../views/json-plan.js";

interface Chosen {
  envDisplay: string;
  key: string;
  prefix: string;
  seed: string | undefined;
}

async function choose(ctx: CommandContext, opts: ReturnType<typeof parseDbOptions>, interactive: boolean): Promise<Chosen> {
  const ask = (question: string, fallback: string): Promise<string> => askLine(ctx.io, ctx.signal, question, fallback);
  const envDisplay = opts.env ?? (interactive ? checkEnvPath(await ask("Env file", DEFAULT_ENV_FILE)) : DEFAULT_ENV_FILE);
  let key = opts.key ?? (interactive ? checkKey(await ask("Variable for the connection string", DEFAULT_KEY)) : DEFAULT_KEY);
  const seedAnswer = opts.seed ?? (interactive ? await ask("SQL file to seed it with (empty: none)", "") : "");
  const prefix = opts.prefix ?? (interactive ? checkPrefix(await ask("Prefix of the public variables", DEFAULT_PREFIX)) : DEFAULT_PREFIX);
  const file = path.resolve(ctx.io.cwd, envDisplay);
  // The SDK's own refusal first (PLATFORM_INSTANT_ENV_FILE_INVALID), then the CLI's: never the policy or its imports.
  assertEnvTarget(file, envDisplay);
  await checkLocalWrites(ctx.io.cwd, [{ flag: "the env file", display: envDisplay, path: file }], undefined);
  for (;;) {
    try {
      assertKeysAbsent(await readEnvFile(file, envDisplay), envKeys(key, prefix), envDisplay);
      break;
    } catch (err) {
      if (!interactive || !isPlatformError(err) || err.code !== ErrorCode.INSTANT_KEY_EXISTS) throw err;
      ctx.err([err.message.replace(/ Nothing was created\.$/, "")]);
      const answer = await ask("Another variable for the connection string (empty: stop)", "");
      if (answer === "") throw err;
      key = checkKey(answer);
    }
  }
  return { envDisplay, key, prefix, seed: seedAnswer === "" ? undefined : seedAnswer };
}

/** `svc db`: returns the exit code (0, 1, 3, 7 or 130). */
export async function runDb(ctx: CommandContext, raw: Record<string, unknown>): Promise<number> {
  let created: InstantPostgresCreated | null = null;
  let chosen: Chosen | null = null;
  const json = raw["json"] === true;
  const onExit = (): void => {
    if (created !== null) ctx.err([`Database ${created.record.id} was created; claim it at ${created.record.claim_url}`]);
  };
  const cancel = new AbortController();
  const onAbort = (): void => {
    if (created === null) cancel.abort();
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const opts = parseDbOptions(raw, ctx.io.env);
    chosen = await choose(ctx, opts, ctx.interactive && !opts.yes && !opts.json);
    const file = path.resolve(ctx.io.cwd, chosen.envDisplay);
    const result = await instantPostgres({
      referrer: opts.ref,
      ...(chosen.seed !== undefined ? { seed: { type: "sql-script" as const, path: path.isAbsolute(chosen.seed) || ctx.io.cwd === process.cwd() ? chosen.seed : path.resolve(ctx.io.cwd, chosen.seed) } } : {}),
      dotEnvFile: file,
      dotEnvKey: chosen.key,
      envPrefix: chosen.prefix,
      apiHost: opts.apiHost,
      logicalReplication: opts.logicalReplication,
      signal: cancel.signal,
      fetch: createProxyAwareFetch(ctx.io.env),
      onCreated: (value) => {
        created = value;
        ctx.scrubber.add(value.record.connection_string ?? undefined, value.databaseUrlDirect);
        process.once("exit", onExit);
      },
    });
    const gitIgnored = await isGitIgnored(file);
    const warnings = [...result.warnings];
    if (gitIgnored === false) warnings.push(notIgnoredWarning(chosen.envDisplay));
    for (const warning of warnings) ctx.err([`warning: ${warning}`]);
    const record = (created as InstantPostgresCreated | null)?.record;
    if (record === undefined) throw new PlatformError(ErrorCode.INSTANT_BAD_RESPONSE, "the database was not reported as created");
    const fields = documentFields(record, result.databaseUrlDirect, chosen.envDisplay, envKeys(chosen.key, chosen.prefix), { seeded: chosen.seed !== undefined, gitIgnored, warnings });
    if (json) {
      ctx.outSecret(stringifyDocument({ formatVersion: 1, command: "db", ...fields }));
      ctx.documentPrinted = true;
    } else ctx.out(successLines(fields, ctx.io.now()));
    return 0;
  } catch (err) {
    ctx.err(dbErrorText(err, ctx.verbose));
    const orphan = created as InstantPostgresCreated | null;
    if (orphan !== null && !json && !(isPlatformError(err) && (err.code === ErrorCode.INSTANT_SEED_FAILED || err.code === ErrorCode.INSTANT_KEY_EXISTS))) {
      ctx.err([`Database ${orphan.record.id} was created but the env file was not written; claim it at ${orphan.record.claim_url}`]);
    }
    if (json) {
      let database: DbDocumentFields | null = null;
      if (orphan !== null && chosen !== null) {
        database = documentFields(orphan.record, orphan.databaseUrlDirect, chosen.envDisplay, envKeys(chosen.key, chosen.prefix), { seeded: false, gitIgnored: null, warnings: [] });
      }
      ctx.outSecret(stringifyDocument({ formatVersion: 1, command: "db", error: dbJsonError(err), database }));
      ctx.documentPrinted = true;
    }
    return ctx.signal.aborted && orphan === null ? 130 : dbExitCode(err);
  } finally {
    process.off("exit", onExit);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/** `svc db claim`: status first, then print the claim URL and open it when allowed. */
export async function runDbClaim(ctx: CommandContext, raw: Record<string, unknown>): Promise<number> {
  const json = raw["json"] === true;
  try {
    const given = writtenEnvFile(raw);
    const envDisplay = given === undefined ? DEFAULT_ENV_FILE : checkEnvPath(given);
    const prefix = typeof raw["prefix"] === "string" ? checkPrefix(raw["prefix"]) : undefined;
    const found = await findClaimUrl(path.resolve(ctx.io.cwd, envDisplay), envDisplay, prefix);
    const apiHost = resolveApiHost(raw["apiHost"], ctx.io.env, new URL(found.url).origin) ?? new URL(found.url).origin;
    const record = await getClaimableDatabase(found.id, { apiHost, signal: ctx.signal, fetch: createProxyAwareFetch(ctx.io.env) });
    if (record === null) {
      throw new PlatformError(ErrorCode.INSTANT_NOT_FOUND, "This database has expired or does not exist.", {
        details: { databaseId: found.id, file: envDisplay, hint: `remove the three lines svc db wrote to ${envDisplay} and run svc db again` },
      });
    }
    const claimed = record.status === "CLAIMED";
    const projectId = typeof record.svc_project_id === "string" ? record.svc_project_id : null;
    if (!json && claimed) ctx.out([`Already claimed into project ${projectId ?? "(unknown)"}.`]);
    else if (!json) {
      const expiry = record.expires_at === null ? "" : `, expires ${shortUtc(record.expires_at)} (${relativeTime(record.expires_at, ctx.io.now())})`;
      ctx.out([`Database ${record.id}: ${record.status}${expiry}`, `Claim it: ${record.claim_url}`]);
    }
    let opened = false;
    if (!claimed && !json && mayOpenBrowser(ctx.interactive, ctx.io.env)) {
      opened = await openBrowser(record.claim_url);
      if (!opened) ctx.err(["warning: could not open a browser; open the URL above yourself"]);
    }
    if (json) {
      ctx.out(stringifyDocument({ formatVersion: 1, command: "db claim", id: record.id, status: record.status, claimUrl: record.claim_url, expiresAt: record.expires_at, svcProjectId: projectId, opened }));
      ctx.documentPrinted = true;
    }
    return 0;
  } catch (err) {
    ctx.err(dbErrorText(err, ctx.verbose));
    if (json) {
      ctx.out(stringifyDocument({ formatVersion: 1, command: "db claim", error: dbJsonError(err) }));
      ctx.documentPrinted = true;
    }
    return dbExitCode(err);
  }
}
