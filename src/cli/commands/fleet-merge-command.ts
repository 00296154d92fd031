import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";
import { mergeSummaries, readSummaryFile } from "../fleet-summary-file.js";
import { buildFleetDocument, renderFleetMarkdown, renderFleetText, worstExitCode } from "../views/fleet-summary.js";
import { stringifyDocument } from "../views/json-plan.js";

/** Flags of `svc config fleet merge`. */
export interface FleetMergeFlags {
  json?: boolean;
  markdown?: boolean;
}

/**
 * `svc config fleet merge FILE…`: the summary files of every shard of one fleet run
 * (`--shard i/n --out-summary FILE`) as one table, exactly as the unsharded run prints it
 * (text, `--json`, `--markdown`), and the worst branch's exit code. Reads only local files.
 */
export function runFleetMerge(ctx: CommandContext, files: readonly string[], flags: FleetMergeFlags): number {
  if (files.length === 0) throw new CliError(CliErrorCode.USAGE, "svc config fleet merge needs the summary files to merge.", { hint: "usage: svc config fleet merge FILE… (the --out-summary files of every shard)" });
  const merged = mergeSummaries(files.map((name) => ({ name, summary: readSummaryFile(ctx.io.cwd, name) })));
  for (const warning of merged.warnings) ctx.err([`warning: ${warning}`]);
  const { run, rows } = merged;
  const exitCode = worstExitCode(rows.map((r) => r.exitCode));
  if (flags.json === true) {
    ctx.out(stringifyDocument(buildFleetDocument(rows, { command: run.command, cliVersion: run.cliVersion, projectId: run.projectId, branches: run.branches, exitCode })));
    ctx.documentPrinted = true;
  } else if (flags.markdown === true) {
    ctx.out(renderFleetMarkdown(rows, run.projectId, run.command));
  } else {
    ctx.out(renderFleetText(rows));
  }
  return exitCode;
}
