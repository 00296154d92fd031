import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { LIBRARY_VERSION } from "../../version.js";
import type { CommandContext } from "../context.js";
import { buildFleetDocument, fleetRows, renderFleetMarkdown, renderFleetText, worstExitCode } from "../views/fleet-summary.js";
import { stringifyDocument } from "../views/json-plan.js";
import type { ApplyFlags } from "./gated-run.js";
import { selectionOptions } from "./plan-command.js";
import { checksOption, connect, loadEnv, loadPolicyWithChecks } from "./target-setup.js";
import type { FleetShard } from "../../engine/fleet-shard.js";
import { checkLocalWrites, localWrite, writeLocalFile } from "../files.js";
import { configDigest, renderSummaryFile, type FleetRunIdentity } from "../fleet-summary-file.js";

/** Flags of `svc config plan|apply --branches`. */
export interface FleetFlags extends ApplyFlags {
  /** `all`, or a glob over branch names. */
  branches: string;
  /** `--shard i/n`: only the branches of shard `i` of `n`. */
  shard?: FleetShard;
  /** `--out-summary FILE`: also write this shard's summary for `svc config fleet merge`. */
  outSummary?: string;
}

/**
 * `svc config plan|apply --branches <glob|all>`: the policy on every matching branch of the
 * project under one concurrency budget, then one summary table (text, `--json`, `--markdown`).
 * The exit code is the worst branch's; a failing branch never stops the others. An apply asks
 * nothing: what the flags do not grant fails that branch with exit 4.
 */
export async function runFleet(ctx: CommandContext, flags: FleetFlags, command: "plan" | "apply"): Promise<number> {
  if (flags.branch !== undefined) throw new CliError(CliErrorCode.USAGE, "--branches and --branch exclude each other.", { hint: "Use --branch for one branch, --branches <glob|all> for many." });
  const summaryFile = flags.outSummary === undefined ? undefined : localWrite(ctx.io.cwd, "--out-summary", flags.outSummary);
  await checkLocalWrites(ctx.io.cwd, summaryFile === undefined ? [] : [summaryFile], flags.config);
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const policy = await loadPolicyWithChecks(ctx, engine, flags);
  const { api, creds } = await connect(ctx, engine, flags, origins);
  const shardText = flags.shard === undefined ? "" : `, shard ${flags.shard.index} of ${flags.shard.count}`;
  ctx.err([`Target: project ${creds.projectId.value}, branches ${flags.branches}${shardText}, api ${creds.apiHost.value}`]);
  const granted = {
    updateExisting: flags.updateExisting === true || flags.yes === true,
    allowProtectedBranch: flags.allowProtected === true || flags.yes === true,
  };
  const options = {
    projectId: creds.projectId.value,
    api,
    branches: flags.branches,
    signal: ctx.signal,
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...selectionOptions(flags),
    ...checksOption(policy),
    ...(flags.shard === undefined ? {} : { shard: flags.shard }),
    onBranch: (o: { branchName: string; error?: Error }) => ctx.info([`${o.branchName}: ${o.error === undefined ? "done" : "failed"}`]),
  };
  const fleet = command === "plan"
    ? await engine.planFleet(policy.config, { ...options, allowDataLoss: true, ...(flags.verify === true ? { verify: true } : {}) })
    : await engine.applyFleet(policy.config, {
      ...options, ...granted, allowDataLoss: flags.allowDataLoss === true,
      confirm: (c) => (!c.protectedBranch || granted.allowProtectedBranch) && (!c.overrideUpdates || granted.updateExisting),
    });
  const rows = fleetRows(fleet, { detailedExitcode: command === "apply" || flags.detailedExitcode === true });
  const exitCode = worstExitCode(rows.map((r) => r.exitCode));
  if (summaryFile !== undefined) {
    const run: FleetRunIdentity = {
      command,
      cliVersion: LIBRARY_VERSION,
      projectId: fleet.projectId,
      branches: flags.branches,
      targets: flags.target ?? [],
      exclude: flags.exclude ?? [],
      detailedExitcode: command === "apply" || flags.detailedExitcode === true,
      shardCount: flags.shard?.count ?? 1,
      configDigest: configDigest([policy.resolvedPath, ...(policy.checksPath === undefined ? [] : [policy.checksPath])]),
    };
    const applied = command === "apply" && rows.some((r) => r.result === "applied") ? `branches ${flags.branches}` : undefined;
    writeLocalFile(summaryFile, renderSummaryFile({ run, shard: flags.shard?.index ?? 1, matched: fleet.matched, exitCode, rows }), { mode: 0o644 }, applied === undefined ? {} : { applied });
  }
  if (flags.json === true) {
    ctx.out(stringifyDocument(buildFleetDocument(rows, { command, cliVersion: LIBRARY_VERSION, projectId: fleet.projectId, branches: flags.branches, exitCode })));
    ctx.documentPrinted = true;
  } else if (flags.markdown === true) {
    ctx.out(renderFleetMarkdown(rows, fleet.projectId, command));
  } else {
    ctx.out(renderFleetText(rows));
  }
  return exitCode;
}
