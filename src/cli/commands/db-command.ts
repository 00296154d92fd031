/**
 * `svc db` and `svc db claim`: create a claimable Postgres database through the
 * SDK, seed it, write the env block, and check or open the claim URL.
 */
import path from "node:path";
import type { Command } from "commander";
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
import { checkEnvPath, checkKey, checkPrefix, DEFAULT_ENV_FILE, DEFAULT_KEY, DEFAULT_PREFIX, parseDbOptions, resolveApiHost } from "../db/db-options.js";
import { dbErrorText, dbExitCode, dbJsonError, documentFields, relativeTime, shortUtc, successLines, type DbDocumentFields } from "../db/db-output.js";
import { askLine } from "../db/line-prompt.js";
import { mayOpenBrowser, openBrowser } from "../db/open-browser.js";
import { stringifyDocument } from "../views/json-plan.js";

/** How `program.ts` runs a command body and records its exit code. */
export type RunCommand = (cmd: Command, body: (opts: Record<string, unknown>, args: string[]) => Promise<number> | number) => Command;

/** Registers `svc db` and `svc db claim` with exactly the seed's options plus `--json` and `--api-host`. */
export function addDbCommands(program: Command, run: RunCommand, ctx: CommandContext): void {
  const db = program
    .command("db")
    .description("create a claimable Postgres database and write its URLs to the env file")
    .option("-y, --yes", "skip prompts, use defaults (never overwrites a variable)")
    .option("--write-env <path>", "env file to write the database's URLs to (default: ./.env)")
    .option("-e, --env <path>", "the same as --write-env (the short spelling other tools use); svc config's --env loads a file instead")
    .option("-k, --key <string>", "variable for the connection string (default: DATABASE_URL)")
    .option("-p, --prefix <string>", "prefix of the public variables (default: PUBLIC_)")
    .option("-s, --seed <path>", "SQL file to seed the database with, in one transaction")
    .option("-L, --logical-replication", "enable logical replication (default: false)")
    .option("-r, --ref <string>", "referrer id (default: svc-config/cli)")
    .option("--json", "print the result document on stdout; no prompts")
    .option("--api-host <url>", "claim API origin (env: SVC_CLAIM_API_HOST; default: https://neon.new)");
  db.addHelpText("after", "\nExamples:\n  $ svc db --yes\n  $ svc db --write-env .env.development -s seed.sql\n  $ svc db -e .env.development\n  $ svc db claim\n");
  run(db, (opts) => runDb(ctx, opts));
  const claim = db
    .command("claim")
    .description("check the database's status, print its claim URL and open it in a browser")
    .option("-e, --env <path>", "env file holding the claim URL (default: ./.env)")
    .option("-p, --prefix <string>", "prefix of the claim URL variable (default: PUBLIC_, else the only *POSTGRES_CLAIM_URL)")
    .option("--api-host <url>", "claim API origin (default: the claim URL's own origin)")
    .option("--json", "print {formatVersion, command, id, status, claimUrl, expiresAt, svcProjectId, opened}");
  claim.addHelpText("after", "\nExamples:\n  $ svc db claim\n  $ svc db claim -e .env.development --json\n");
  // The parent parses the shared flags (-e, -p, --api-host, --json) wherever they appear, so the
  // subcommand's own value counts only where it was given.
  run(claim, (opts) => runDbClaim(ctx, givenOver(db.opts(), opts)));
}

/** `parent` with each flag of `own` that was given (not `undefined`) laid over it. */
function givenOver(parent: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, parent);
  for (const [key, value] of Object.entries(own)) if (value !== undefined) merged[key] = value;
  return merged;
}

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
    const envDisplay = typeof raw["env"] === "string" ? checkEnvPath(raw["env"]) : DEFAULT_ENV_FILE;
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
