import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";
import { checkLocalWrites, policyFileFor, writeLocalFile } from "../files.js";
import type { TargetFlags } from "../target.js";
import { printedDocument } from "../views/outside-text.js";
import { unifiedDiff } from "../views/unified-diff.js";
import { displayPath, echoInfo, loadEnv, printEcho, resolveTarget } from "./target-setup.js";

/** Flags of `svc config pull`. */
export interface PullFlags extends TargetFlags {
  write?: boolean;
  yes?: boolean;
  config?: string;
  env?: string[];
}

/** Where `--write` writes: `--config`, else the file the search finds, else `./svc.ts`. */
export function pullDestination(cwd: string, config: string | undefined): string {
  return policyFileFor(cwd, config) ?? resolve(cwd, "svc.ts");
}

/**
 * `svc config pull`: the live branch rendered as `svc.ts` on stdout, or written with `--write`
 * (atomic). Overwriting asks on a terminal after showing a diff (No → exit 5); elsewhere it
 * needs `--yes` (exit 4).
 */
export async function runPull(ctx: CommandContext, flags: PullFlags): Promise<number> {
  const dest = pullDestination(ctx.io.cwd, flags.config);
  const shown = displayPath(ctx.io.cwd, dest);
  const write = { flag: "--write", display: shown, path: dest, replacesPolicy: true };
  if (flags.write === true) await checkLocalWrites(ctx.io.cwd, [write], flags.config);
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const target = await resolveTarget(ctx, engine, flags, origins);
  printEcho(ctx, echoInfo(target, undefined), false);
  const pulled = await engine.pullConfig({ projectId: target.project.id, branchId: target.branch.id, api: target.api, signal: ctx.signal, onEvent: ctx.requestLog() });
  const source = engine.renderPolicySource(pulled);
  if (flags.write !== true) {
    ctx.out(printedDocument(source));
    return 0;
  }
  if (existsSync(dest)) {
    const current = readFileSync(dest, "utf8");
    if (current === source) {
      ctx.out([`${shown} already matches branch ${target.branch.name}.`]);
      return 0;
    }
    if (flags.yes !== true) {
      if (!ctx.interactive) {
        throw new CliError(CliErrorCode.CONFIRMATION_REQUIRED, `${shown} exists; overwriting it needs confirmation.`, {
          hint: "Add --yes to overwrite it, or omit --write to print the policy.",
        });
      }
      ctx.err(unifiedDiff(current, source, shown, `${shown} (pulled)`));
      if (!(await ctx.ask([`Overwrite ${shown}?`]))) {
        throw new CliError(CliErrorCode.ABORTED, `${shown} was left unchanged.`, { hint: "Nothing changed." });
      }
    }
  }
  writeLocalFile(write, ctx.scrubber.scrub(source), { newMode: 0o644 });
  ctx.out([`Wrote ${shown} from branch ${target.branch.name} (${target.branch.id}).`]);
  return 0;
}
