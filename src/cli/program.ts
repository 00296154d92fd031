import { ownRecord } from "../model/own-record.js";
import { Command, InvalidArgumentError, Option } from "commander";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import { CONCURRENCY_CEILING, isConcurrency } from "../rules/concurrency.js";
import { LIBRARY_VERSION } from "../version.js";
import type { ApplyFlags } from "./commands/gated-run.js";
import { addDbCommands } from "./commands/db-registration.js";
import type { DevFlags } from "./commands/dev-command.js";
import type { CommandContext } from "./context.js";
import { DEFAULT_NAME_TEMPLATE } from "./sync-names.js";

/** Rejects a second use of a single-value flag. */
function single(flag: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined) throw new InvalidArgumentError(`${flag} was given twice.`);
    return value;
  };
}

function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function concurrency(value: string, previous: number | undefined): number {
  if (previous !== undefined) throw new InvalidArgumentError("--concurrency was given twice.");
  const n = Number(value);
  if (!isConcurrency(n)) throw new InvalidArgumentError(`--concurrency must be an integer from 1 to ${CONCURRENCY_CEILING}.`);
  return n;
}

function port(value: string, previous: number | undefined): number {
  if (previous !== undefined) throw new InvalidArgumentError("--port was given twice.");
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > 65_535) throw new InvalidArgumentError("--port must be an integer from 1 to 65535.");
  return n;
}

function graphFormat(value: string, previous: string | undefined): string {
  if (previous !== undefined) throw new InvalidArgumentError("--graph was given twice.");
  if (value !== "dot" && value !== "mermaid") throw new InvalidArgumentError(`--graph takes dot or mermaid, not "${value}".`);
  return value;
}

function addCommon(cmd: Command): Command {
  return cmd
    .option("--no-color", "no colours (also NO_COLOR; FORCE_COLOR forces them)")
    .option("--verbose", "cause chains and one line per HTTP request the engine reads or retries")
    .option("--quiet", "print only the target line, the summary or result line, and errors: no change list, no progress (a --json or --markdown document is still printed whole)");
}

function addPolicy(cmd: Command): Command {
  return cmd
    .option("--config <path>", "the policy file (default: search for svc.ts upwards from here)", single("--config"))
    .option("--env <file>", "load a dotenv file before svc.ts is evaluated; repeatable, never overwrites", repeatable)
    .option("--eval-timeout <seconds>", "time limit for evaluating svc.ts and its branch function, each (default: 30)", evalTimeout);
}

function evalTimeout(value: string, previous: number | undefined): number {
  if (previous !== undefined) throw new InvalidArgumentError("--eval-timeout was given twice.");
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw new InvalidArgumentError("--eval-timeout must be a number of seconds above 0 and at most 86400.");
  return Math.max(1, Math.round(seconds * 1000));
}

function addChecks(cmd: Command): Command {
  return cmd.option("--checks <file>", "policy checks run over the plan before anything is applied (default: svc.checks.ts beside svc.ts, if present); a failed mandatory check exits 8", single("--checks"));
}

function addTarget(cmd: Command, options: { branch: boolean } = { branch: true }): Command {
  cmd.option("--project-id <id>", "the project (env: SVC_PROJECT_ID)", single("--project-id"));
  if (options.branch) cmd.option("--branch <ref>", "branch id or name, or id:<id> / name:<name> (env: SVC_BRANCH_ID; default: the project's default branch)", single("--branch"));
  return cmd
    .option("--api-key <key>", "API key (env: SVC_API_KEY); a flag value shows in process lists and shell history, prefer the variable", single("--api-key"))
    .option("--api-host <url>", "management API URL (env: SVC_API_HOST; default: production)", single("--api-host"));
}

function addFleet(cmd: Command): Command {
  return cmd
    .option("--branches <glob>", "every branch whose name matches (`*` globs, or all), under one concurrency budget; prints one summary table", single("--branches"))
    .option("--shard <i/n>", "with --branches: only shard i of n (each branch in exactly one shard, by a hash of its id)", shardFlag)
    .option("--out-summary <file>", "with --branches: also write this run's summary for svc config fleet merge", single("--out-summary"));
}

/** `--shard i/n`: whole numbers, 1 <= i <= n (the engine checks the most shards a run may have). */
function shardFlag(value: string, previous: { index: number; count: number } | undefined): { index: number; count: number } {
  if (previous !== undefined) throw new InvalidArgumentError("--shard was given twice.");
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index < 1 || index > count) throw new InvalidArgumentError("--shard takes i/n with whole numbers 1 <= i <= n (such as 2/4).");
  return { index, count };
}

/** `--shard` and `--out-summary` belong to fleet runs. */
function refuseFleetOnlyFlags(opts: Record<string, unknown>): void {
  const given = [...(opts.shard === undefined ? [] : ["--shard"]), ...(opts.outSummary === undefined ? [] : ["--out-summary"])];
  if (given.length > 0) throw new CliError(CliErrorCode.USAGE, `${given.join(" and ")} need --branches.`, { hint: "Add --branches <glob|all>, or drop the flag." });
}

function addSelection(cmd: Command): Command {
  return cmd
    .option("--target <address>", "only this change and what it depends on; `*` globs (function.api, trigger.*); repeatable", repeatable)
    .option("--exclude <address>", "leave out this change and everything that depends on it; `*` globs; repeatable", repeatable);
}

function addApplyFlags(cmd: Command): Command {
  return addSelection(cmd)
    .option("--update-existing", "allow override changes: settings made outside svc.ts, deletes, moved hostnames (default: off)")
    .option("--allow-protected", "allow applying to a protected branch (default: off)")
    .option("--allow-data-loss", "allow deleting a bucket that still holds objects (default: off; never implied by --yes)")
    .option("--yes", "skip the prompt; implies --update-existing and --allow-protected, never --allow-data-loss")
    .option("--concurrency <n>", "parallel bundles and in-flight requests at the start, 1-64 (default: 8)", concurrency)
    .option("--allow-external-sources", "ship function sources that resolve outside the policy's directory (default: off)")
    .option("--no-cache", "neither read nor write the bundle cache (node_modules/.cache/svc-config beside svc.ts)")
    .option("--json", "print the result document (docs/plan-format.md) on stdout");
}

function addWriteEnv(cmd: Command): Command {
  return cmd
    .option("--write-env <file>", "after success, set DATABASE_URL (pooled), DATABASE_URL_DIRECT and SVC_FUNCTION_<SLUG>_URL in this dotenv file; other lines kept, a new file gets mode 0600", single("--write-env"))
    .option("--env-prefix <str>", "prefix of the variable names --write-env sets (default: none)", single("--env-prefix"));
}

function examples(cmd: Command, lines: readonly string[]): Command {
  return cmd.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`);
}

/** `apply` / `deploy`: one branch, or with `--branches` a fleet (never with a saved plan). */
async function runApplyOrFleet(ctx: CommandContext, planFile: string | undefined, opts: Record<string, unknown>): Promise<number> {
  if (typeof opts.branches !== "string") {
    refuseFleetOnlyFlags(opts);
    return (await import("./commands/apply-command.js")).runApply(ctx, planFile, opts as ApplyFlags);
  }
  if (planFile !== undefined) throw new CliError(CliErrorCode.USAGE, "--branches applies the policy; a saved plan belongs to one branch.", { hint: "Drop the plan file, or drop --branches." });
  return (await import("./commands/fleet-command.js")).runFleet(ctx, { ...(opts as ApplyFlags), branches: opts.branches }, "apply");
}

/** Options of {@link buildProgram}. */
export interface ProgramHooks {
  ctx: CommandContext;
  /** Receives the exit code of the command that ran. */
  setExitCode: (code: number) => void;
}

/**
 * The `svc` command tree on commander, with `--help` and examples for every command. A command's
 * module loads when it runs, so `svc --version`, `--help` and each command load only their own code.
 */
export function buildProgram(hooks: ProgramHooks): Command {
  const { ctx, setExitCode } = hooks;
  const program = new Command("svc");
  program
    .description("Config-as-code for a managed Postgres platform: plan and apply svc.ts to a branch.")
    .version(`svc-config ${LIBRARY_VERSION}`, "-V, --version", "print the version")
    .exitOverride()
    // Each command reads the flags after its name (`svc db claim -y` is not `svc db -y`).
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      outputError: () => undefined,
    });

  const run = (cmd: Command, body: (opts: Record<string, unknown>, args: string[]) => Promise<number> | number): Command => {
    return cmd.action(async () => {
      const opts = declaredFlags(cmd);
      ctx.setFlags(opts);
      if (opts.json === true) ctx.jsonCommand = cmd.parent?.name() === "branch" ? `branch ${cmd.name()}` : cmd.name();
      setExitCode(await body(opts, cmd.args));
    });
  };

  const config = program.command("config").description("plan and apply svc.ts, inspect and pull the live branch");

  const init = addCommon(config.command("init").description("scaffold svc.ts, an example function and env types, and a tsconfig.json when there is none (no API calls)"))
    .option("--force", "overwrite the scaffold files if they exist (never an existing tsconfig.json)")
    .option("--no-example", "write an empty policy and no function")
    .option("--no-tsconfig", "do not write a tsconfig.json where none exists (init still says what one needs)");
  examples(init, ["svc config init", "svc config init --no-example", "svc config init --no-tsconfig"]);
  run(init, async (opts) => (await import("./commands/init-command.js")).runInit(ctx, opts));

  const validate = addChecks(addPolicy(addCommon(config.command("validate").description("check svc.ts and its policy checks offline: no key, no network"))))
    .option("--json", "print {formatVersion, command, configPath, valid, issues, checksPath, checks} on stdout")
    .option("--no-bundle", "skip bundling the functions")
    .option("--no-cache", "neither read nor write the bundle cache (node_modules/.cache/svc-config beside svc.ts)")
    .option("--allow-external-sources", "accept function sources that resolve outside the policy's directory (default: off)");
  examples(validate, ["svc config validate", "svc config validate --env .env.ci --json"]);
  run(validate, async (opts) => (await import("./commands/validate-command.js")).runValidate(ctx, opts));

  const status = addTarget(addCommon(config.command("status").description("show the live branch (read-only; does not read svc.ts)")))
    .option("--env <file>", "load a dotenv file first; repeatable", repeatable)
    .option("--json", "print the status document on stdout");
  examples(status, ["svc config status", "svc config status --branch preview/pr-42 --json"]);
  run(status, async (opts) => (await import("./commands/status-command.js")).runStatus(ctx, opts));

  const pull = addPolicy(addTarget(addCommon(config.command("pull").description("render the live branch as svc.ts"))))
    .option("--write", "write the file (--config, the file the search finds, or ./svc.ts) instead of printing it")
    .option("--yes", "overwrite without asking");
  examples(pull, ["svc config pull > svc.ts", "svc config pull --write --yes"]);
  run(pull, async (opts) => (await import("./commands/pull-command.js")).runPull(ctx, opts));

  const plan = addChecks(addSelection(addPolicy(addTarget(addCommon(config.command("plan").description("dry run: what apply would change (mutates nothing)"))))))
    .option("--out <file>", "also write the saved plan for `svc config apply FILE` (mode 0600)", single("--out"))
    .addOption(new Option("--json", "print the plan document (docs/plan-format.md)").conflicts("markdown"))
    .addOption(new Option("--markdown", "print a pull-request comment").conflicts("json"))
    .addOption(new Option("--graph <format>", "print the dependency graph of the changes instead of the plan (Graphviz DOT or Mermaid)").argParser(graphFormat).conflicts(["json", "markdown"]))
    .option("--schema-diff", "with --markdown: add the schema diff of the branch against its parent as a collapsible section (preview branches; not on the default branch)")
    .option("--verify", "apply the plan to a local replica of what it read (an in-process emulator), plan again, and report whether it converges")
    .option("--detailed-exitcode", "exit 0 no changes, 2 changes (also pending outside --target), 3 blocking conflicts, 8 a failed mandatory check")
    .option("--concurrency <n>", "parallel bundles and reads, 1-64 (default: 8)", concurrency)
    .option("--allow-external-sources", "bundle function sources that resolve outside the policy's directory (default: off)")
    .option("--no-cache", "neither read nor write the bundle cache (node_modules/.cache/svc-config beside svc.ts)");
  examples(plan, ["svc config plan", "svc config plan --markdown --detailed-exitcode --out plan.json > plan.md", "svc config plan --branch name:main --json", "svc config plan --graph dot | dot -Tsvg > plan.svg", "svc config plan --branch preview/pr-42 --markdown --schema-diff > plan.md"]);
  addFleet(plan);
  run(plan, async (opts) => {
    if (opts.schemaDiff === true && (opts.markdown !== true || typeof opts.branches === "string")) {
      throw new CliError(CliErrorCode.USAGE, "--schema-diff adds a section to the --markdown plan of one branch.", { hint: "Add --markdown (without --branches), or drop --schema-diff." });
    }
    if (typeof opts.branches === "string") return (await import("./commands/fleet-command.js")).runFleet(ctx, { ...(opts as ApplyFlags), branches: opts.branches }, "plan");
    refuseFleetOnlyFlags(opts);
    return (await import("./commands/plan-command.js")).runPlan(ctx, opts);
  });

  const fleet = config.command("fleet").description("fleet runs split across machines");
  const merge = addCommon(fleet.command("merge").description("merge the --out-summary files of every shard into one summary table; exits with the worst branch's code").argument("<files...>", "the summary files"))
    .addOption(new Option("--json", "print the fleet document").conflicts("markdown"))
    .addOption(new Option("--markdown", "print a pull-request comment").conflicts("json"));
  examples(merge, ["svc config fleet merge summary-*.json", "svc config fleet merge summary-*.json --markdown > fleet.md"]);
  run(merge, async (opts, args) => (await import("./commands/fleet-merge-command.js")).runFleetMerge(ctx, args, opts));

  const applyExamples = ["svc config apply --branch main", "svc config apply plan.json --allow-protected", "svc deploy --branch preview/pr-42 --yes"];
  const apply = addChecks(addWriteEnv(addApplyFlags(addPolicy(addTarget(addCommon(config.command("apply").description("apply svc.ts, or a saved plan, to the branch").argument("[planfile]", "a saved plan from plan --out")))))));
  examples(apply, [...applyExamples, "svc config apply --branch preview/pr-42 --write-env .env"]);
  addFleet(apply);
  run(apply, (opts, args) => runApplyOrFleet(ctx, args[0], opts));

  const deploy = addChecks(addWriteEnv(addApplyFlags(addPolicy(addTarget(addCommon(program.command("deploy").description("alias of svc config apply").argument("[planfile]", "a saved plan from plan --out")))))));
  examples(deploy, applyExamples);
  addFleet(deploy);
  run(deploy, (opts, args) => runApplyOrFleet(ctx, args[0], opts));

  const branch = program.command("branch").description("preview-branch lifecycle for per-pull-request pipelines");

  const create = addChecks(addWriteEnv(addApplyFlags(addPolicy(addTarget(addCommon(branch.command("create").description("create a branch from the policy").argument("<name>", "the new branch's name")), { branch: false })))))
    .addOption(new Option("--if-exists <mode>", "when the name exists: fail, or apply the policy to it").choices(["fail", "apply"]).default("fail"));
  examples(create, ["svc branch create pr-42 --if-exists apply --update-existing", "svc branch create pr-42 --write-env .env"]);
  run(create, async (opts, args) => (await import("./commands/branch-commands.js")).runBranchCreate(ctx, args[0] ?? "", opts));

  const sync = addChecks(addWriteEnv(addApplyFlags(addPolicy(addTarget(addCommon(branch.command("sync").description("create or update the preview branch of a git branch from the policy")), { branch: false })))))
    .option("--git-branch <name>", "the git branch to map (default: the checked-out one)", single("--git-branch"))
    .option("--name-template <template>", `the platform branch's name; {git-branch} is the sanitised git branch (default: ${DEFAULT_NAME_TEMPLATE})`, single("--name-template"));
  examples(sync, ["svc branch sync --write-env .env", "svc branch sync --git-branch \"$GITHUB_HEAD_REF\" --update-existing --write-env .env"]);
  run(sync, async (opts) => (await import("./commands/branch-sync.js")).runBranchSync(ctx, opts));

  const cleanup = addTarget(addCommon(branch.command("cleanup").description("delete preview branches made by sync whose git branch is gone")), { branch: false })
    .option("--env <file>", "load a dotenv file first; repeatable", repeatable)
    .option("--git-branch <name>", "only the branch synced from this git branch, even if it still exists (a closed pull request)", single("--git-branch"))
    .option("--yes", "delete without asking")
    .option("--json", "print {formatVersion, command, target, deleted, kept, failed}");
  examples(cleanup, ["git fetch --prune && svc branch cleanup", "svc branch cleanup --git-branch \"$GITHUB_HEAD_REF\" --yes"]);
  run(cleanup, async (opts) => (await import("./commands/branch-cleanup.js")).runBranchCleanup(ctx, opts));

  const hook = addCommon(branch.command("hook").description("install or remove the git post-checkout hook that runs svc branch sync").argument("<action>", "install or uninstall"))
    .option("--config <path>", "the policy file sync uses (recorded as an absolute path)", single("--config"))
    .option("--env <file>", "a dotenv file sync loads; repeatable (recorded as absolute paths; the hook then runs without SVC_API_KEY set)", repeatable)
    .option("--name-template <template>", `the platform branch's name (default: ${DEFAULT_NAME_TEMPLATE})`, single("--name-template"))
    .option("--update-existing", "let sync apply override changes to an existing preview")
    .option("--write-env <file>", "sync writes the branch's DATABASE_URL and function URLs to this dotenv file", single("--write-env"))
    .option("--env-prefix <str>", "prefix of the variable names --write-env sets", single("--env-prefix"));
  examples(hook, ["svc branch hook install --write-env .env", "svc branch hook uninstall"]);
  run(hook, async (opts, args) => (await import("./commands/branch-hook.js")).runBranchHook(ctx, args[0] ?? "", opts));

  const branchStatus = addTarget(addCommon(branch.command("status").description("the git branch, its preview branch, whether it exists and whether the git hook is installed")), { branch: false })
    .option("--env <file>", "load a dotenv file first; repeatable", repeatable)
    .option("--git-branch <name>", "the git branch to map (default: the checked-out one)", single("--git-branch"))
    .option("--name-template <template>", `the platform branch's name (default: ${DEFAULT_NAME_TEMPLATE})`, single("--name-template"))
    .option("--json", "print {formatVersion, command, gitBranch, branchName, exists, branchId, hook}");
  examples(branchStatus, ["svc branch status", "svc branch status --json"]);
  run(branchStatus, async (opts) => (await import("./commands/branch-status.js")).runBranchStatus(ctx, opts));

  const del = addTarget(addCommon(branch.command("delete").description("delete a branch (after confirmation)").argument("<ref>", "branch name or id")), { branch: false })
    .option("--env <file>", "load a dotenv file first; repeatable", repeatable)
    .option("--yes", "delete without asking")
    .option("--json", "print {formatVersion, command, target, branchId, deleted}");
  examples(del, ["svc branch delete pr-42 --yes"]);
  run(del, async (opts, args) => (await import("./commands/branch-commands.js")).runBranchDelete(ctx, args[0] ?? "", opts));

  const diff = addPolicy(addTarget(addCommon(branch.command("diff").description("the schema difference between a branch and its parent, or --base (ownership and comments left out)").argument("[branch]", "branch name or id (default: SVC_BRANCH_ID, else the project's default branch)")), { branch: false }))
    .option("--base <ref>", "the branch to compare with (default: the branch's parent)", single("--base"))
    .option("--database <name>", "the database (default: the first the policy declares, else the branch's only one, else neondb); both branches need it", single("--database"))
    .addOption(new Option("--json", "print {formatVersion, command, projectId, branch, base, database, identical, diff}").conflicts("markdown"))
    .addOption(new Option("--markdown", "print a collapsible section for a pull-request comment").conflicts("json"));
  examples(diff, ["svc branch diff preview/pr-42", "svc branch diff preview/pr-42 --base main --database appdb", "svc branch diff \"$BRANCH\" --markdown >> comment.md"]);
  run(diff, async (opts, args) => (await import("./commands/branch-diff.js")).runBranchDiff(ctx, args[0], opts));

  const conn = addPolicy(addTarget(addCommon(branch.command("connection-string").description("print the branch's connection URI (a secret: only on request)").argument("[branch]", "branch name or id, the same as --branch"))))
    .option("--pooled", "the pooled host")
    .option("--database <name>", "the database (default: the first the policy declares, else the branch's only one, else neondb)", single("--database"))
    .option("--role <name>", "the role (default: the database owner)", single("--role"))
    .addOption(new Option("--file <path>", "write it to this file (mode 0600) instead of stdout").argParser(single("--file")).conflicts("writeEnv"));
  addWriteEnv(conn);
  examples(conn, ["svc branch connection-string pr-42 --file db-url", "export DATABASE_URL=$(svc branch connection-string --pooled)", "svc branch connection-string --branch pr-42 --write-env .env"]);
  run(conn, async (opts, args) => (await import("./commands/connection-string-command.js")).runConnectionString(ctx, opts, args[0]));

  const dev = addPolicy(addTarget(addCommon(program.command("dev").description("run the functions of svc.ts locally with hot reload (or one module with --source)"))))
    .option("--source <file>", "serve this one module instead of the functions of svc.ts", single("--source"))
    .option("--port <n>", "the port of --source (default: PORT, else the first free port from 8787)", port)
    .option("--no-branch-env", "give the functions no platform variables from the branch (DATABASE_URL, SVC_*)")
    .option("--trigger <name>", "once the functions serve, send this trigger of svc.ts one invocation", single("--trigger"))
    .option("--object-key <key>", "the object key a storage trigger's invocation reports (default: <prefix>example.txt)", single("--object-key"))
    .option("--allow-external-sources", "serve function sources that resolve outside the policy's directory (default: off, as for deploy)");
  examples(dev, ["svc dev", "svc dev --branch preview/pr-42", "svc dev --env .env.emulator --trigger hourly", "svc dev --source ./functions/hello/index.ts --port 3000 --no-branch-env"]);
  run(dev, async (opts) => (await import("./commands/dev-command.js")).runDev(ctx, opts as DevFlags));

  addDbCommands(program, run, ctx);

  program
    .command("emulator")
    .description("run the local platform emulator (see emulator --help)")
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .argument("[args...]")
    .action(async (args: string[]) => {
      setExitCode(await (await import("./commands/emulator-command.js")).runEmulator(ctx, args));
    });

  return program;
}

/** The usage line of the command `argv` names, e.g. `svc config plan [options]`. */
export function usageFor(program: Command, argv: readonly string[]): string {
  let cmd = program;
  const names = ["svc"];
  for (const token of argv) {
    if (token.startsWith("-")) continue;
    const sub = cmd.commands.find((c) => c.name() === token || c.aliases().includes(token));
    if (sub === undefined) break;
    cmd = sub;
    names.push(sub.name());
  }
  return `${names.join(" ")} ${cmd.usage()}`;
}

/** A usage error for a commander parse failure. */
export function usageError(message: string, usage: string | undefined): CliError {
  return new CliError(CliErrorCode.USAGE, message.replace(/^error: /, ""), {
    hint: usage === undefined ? "Run svc --help for the commands and their flags." : `usage: ${usage}`,
  });
}

/**
 * The flags of `cmd` as a null-prototype record holding every declared option as its own key
 * (`undefined` when not given). Flags are read after the policy ran, so an option that was not
 * given must never be answered by a polluted `Object.prototype`, even in a spread copy.
 */
function declaredFlags(cmd: Command): Record<string, unknown> {
  const out = ownRecord(cmd.opts<Record<string, unknown>>());
  for (const option of cmd.options) {
    const key = option.attributeName();
    if (!Object.hasOwn(out, key)) out[key] = undefined;
  }
  return out;
}
