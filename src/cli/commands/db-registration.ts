/**
 * The `svc db` and `svc db claim` commands' flags, apart from their bodies (`db-command.ts`, loaded
 * when one of them runs), so registering them loads neither the claimable-database SDK nor views.
 */
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";

/** How `program.ts` runs a command body and records its exit code. */
export type RunCommand = (cmd: Command, body: (opts: Record<string, unknown>, args: string[]) => Promise<number> | number) => Command;

/** Registers `svc db` and `svc db claim` with exactly the seed's options plus `--json` and `--api-host`. */
export function addDbCommands(program: Command, run: RunCommand, ctx: CommandContext): void {
  // Positional: `svc db`'s own flags are read before `claim` only, so a flag claim does not take
  // (`svc db claim -y`) is an unknown option, not one silently given to `svc db`.
  const db = program
    .command("db")
    .enablePositionalOptions()
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
  run(db, async (opts) => (await import("./db-command.js")).runDb(ctx, opts));
  const claim = db
    .command("claim")
    .description("check the database's status, print its claim URL and open it in a browser")
    .option("--write-env <path>", "env file holding the claim URL, the one svc db wrote (default: ./.env)")
    .option("-e, --env <path>", "the same as --write-env")
    .option("-p, --prefix <string>", "prefix of the claim URL variable (default: PUBLIC_, else the only *POSTGRES_CLAIM_URL)")
    .option("--api-host <url>", "claim API origin (default: the claim URL's own origin)")
    .option("--json", "print {formatVersion, command, id, status, claimUrl, expiresAt, svcProjectId, opened}");
  claim.addHelpText("after", "\nExamples:\n  $ svc db claim\n  $ svc db claim -e .env.development --json\n");
  // The shared flags (--write-env, -e, -p, --api-host, --json) count before `claim` too; its own value wins where it was given.
  run(claim, async (opts) => {
    refuseFlagsNotOf(claim, db);
    return (await import("./db-command.js")).runDbClaim(ctx, givenOver(db.opts(), opts));
  });
}

/** A usage error naming each flag given to `parent` before `cmd` that `cmd` does not take (`svc db -y claim`). */
function refuseFlagsNotOf(cmd: Command, parent: Command): void {
  const taken = new Set(cmd.options.map((o) => o.attributeName()));
  const given = parent.options.filter((o) => !taken.has(o.attributeName()) && parent.getOptionValue(o.attributeName()) !== undefined);
  if (given.length === 0) return;
  const names = given.map((o) => o.flags.replace(/\s*<[^>]*>/, "").replace(", ", "/")).join(", ");
  throw new CliError(CliErrorCode.USAGE, `svc ${parent.name()} ${cmd.name()} does not take ${names}.`, { hint: `usage: svc ${parent.name()} ${cmd.name()} ${cmd.usage()}` });
}

/** `parent` with each flag of `own` that was given (not `undefined`) laid over it. */
function givenOver(parent: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, parent);
  for (const [key, value] of Object.entries(own)) if (value !== undefined) merged[key] = value;
  return merged;
}
