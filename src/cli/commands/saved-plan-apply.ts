import { readFileSync } from "node:fs";
import { shown } from "../views/outside-text.js";
import { basename, resolve } from "node:path";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import { ErrorCode } from "../../errors/codes.js";
import { PlatformError, isPlatformError } from "../../errors/platform-error.js";
import type { PushResult } from "../../model/plan.js";
import type { CommandContext } from "../context.js";
import type { SavedPlan } from "../../v1.js";
import { resolveBranch, resolveCredentials } from "../target.js";
import { findUnsafeCharacter } from "../../rules/visible-text.js";
import type { StalePlanDifference } from "../../errors/engine-errors.js";
import { gateAndExecute, type ApplyFlags } from "./gated-run.js";
import { declaredDatabasesOf } from "../branch-database.js";
import type { EnvWriter } from "../write-env.js";
import { deployHooks } from "../hooks/command-hooks.js";
import { checksOption, connect, echoInfo, loadEnv, loadPolicyWithChecks, printEcho, viewTarget, type Target } from "./target-setup.js";
import { bundleCacheOption, engineTuning } from "../engine-tuning.js";

/** Reads and checks the shape of a saved plan (`CLI_PLAN_UNREADABLE` otherwise). */
export function readSavedPlan(cwd: string, file: string): SavedPlan {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(cwd, file), "utf8"));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new CliError(CliErrorCode.PLAN_UNREADABLE, `${file} is not a saved plan: ${why}`, { hint: "Re-run svc config plan --out FILE." });
  }
  const doc = parsed as Partial<SavedPlan> | null;
  if (typeof doc !== "object" || doc === null || typeof doc.formatVersion !== "number") {
    throw new CliError(CliErrorCode.PLAN_UNREADABLE, `${file} is not a saved plan: formatVersion is missing.`, { hint: "Re-run svc config plan --out FILE." });
  }
  if (doc.formatVersion !== 1) {
    throw new PlatformError(ErrorCode.STALE_PLAN, `${file} has formatVersion ${doc.formatVersion}; this svc reads 1.`, {
      details: { reason: "format", expected: 1, actual: doc.formatVersion },
    });
  }
  const ok =
    typeof doc.projectId === "string" && /^[a-z0-9-]{1,60}$/.test(doc.projectId) &&
    typeof doc.branchId === "string" && doc.branchId !== "" && findUnsafeCharacter(doc.branchId) === null &&
    typeof doc.branchName === "string" && Array.isArray(doc.changes) && Array.isArray(doc.conflicts) && typeof doc.summary === "object";
  if (!ok) throw new CliError(CliErrorCode.PLAN_UNREADABLE, `${file} is not a saved plan: required fields are missing.`, { hint: "Re-run svc config plan --out FILE." });
  return doc as SavedPlan;
}

/** The saved plan as a dry-run result, for rendering and gating. */
function asResult(saved: SavedPlan): PushResult {
  return {
    projectId: saved.projectId,
    branchId: saved.branchId,
    branchName: saved.branchName,
    dryRun: true,
    applied: [],
    conflicts: saved.conflicts,
    changes: saved.changes,
    failed: [],
    skipped: [],
    unmanaged: saved.unmanaged ?? [],
    warnings: saved.warnings ?? [],
    summary: saved.summary,
    stateFingerprint: "",
    bundles: {},
  };
}

/**
 * `svc config apply PLANFILE`: checks the file's target, renders and gates its
 * changes (a saved plan grants no flag), then `applyPlan` with this run's `--env` files.
 * Refusals exit 6; a plan that was already applied exits 0.
 */
export async function runSavedPlanApply(ctx: CommandContext, file: string, flags: ApplyFlags, envWriter?: EnvWriter): Promise<number> {
  // What runs is what the plan shows: a selection given now would be ignored, so it is refused.
  const selecting = [...(flags.target ?? []).map((t) => `--target ${t}`), ...(flags.exclude ?? []).map((e) => `--exclude ${e}`)];
  if (selecting.length > 0) {
    throw new CliError(CliErrorCode.USAGE, `${shown(selecting.join(" "))} cannot narrow a saved plan: ${shown(file)} applies exactly the changes it shows.`, {
      hint: "Drop the flag, or plan again with it: svc config plan --target ADDRESS --out plan.json.",
    });
  }
  const saved = readSavedPlan(ctx.io.cwd, file);
  const name = basename(file);
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  // The target comes from the plan; a flag or SVC_* variable naming another one is refused, never ignored.
  const named = resolveCredentials(flags, ctx.io, origins, { project: false });
  const namedProject = flags.projectId !== undefined || named.projectId.source !== "default" ? named.projectId : undefined;
  if (namedProject !== undefined && namedProject.value !== saved.projectId) {
    throw staleTarget(name, saved, `project ${namedProject.value} (${namedProject.label})`);
  }
  const policy = await loadPolicyWithChecks(ctx, engine, flags);
  const { api, creds } = await connect(ctx, engine, { ...flags, projectId: saved.projectId }, origins);
  const fileSourced = { ...creds, projectId: { value: saved.projectId, source: "plan-file" as const, label: name } };
  const project = await api.getProject({ projectId: saved.projectId });
  const { branch } = await resolveBranch(api, saved.projectId, { value: `id:${saved.branchId}`, source: "plan-file", label: name });
  if (named.branchRef !== undefined) {
    const given = await resolveBranch(api, saved.projectId, named.branchRef);
    if (given.branch.id !== saved.branchId) throw staleTarget(name, saved, `${given.branch.name} (${given.branch.id}, ${named.branchRef.label})`);
  }
  const target: Target = { api, creds: { ...fileSourced, branchRef: { value: saved.branchId, source: "plan-file", label: name } }, project, branch, match: "id" };
  printEcho(ctx, echoInfo(target, policy), flags.json === true);
  const view = viewTarget(target, policy.relativePath);
  const planned = asResult(saved);
  const baseOptions = { projectId: saved.projectId, branchId: saved.branchId, api, signal: ctx.signal, ...engineTuning(ctx.io, flags), ...bundleCacheOption(flags, policy.resolvedPath) };
  const alreadyApplied = (): number => {
    ctx.out([`Nothing to apply: branch ${shown(saved.branchName)} already matches ${shown(name)} (was it applied already?)`]);
    return 0;
  };
  // A plan that was applied already is said so before its changes are shown as if they would run.
  // The checks judge the branch's plan now, which `applyPlan` then requires to be the saved one.
  if (planned.changes.length > 0 || policy.checks !== undefined) {
    const now = await engine.plan(policy.config, { ...baseOptions, allowDataLoss: true, ...checksOption(policy) });
    if (planned.changes.length > 0 && now.changes.length === 0 && now.conflicts.length === 0) return alreadyApplied();
    if (now.checks !== undefined) planned.checks = now.checks;
  }
  try {
    return await gateAndExecute(ctx, {
      result: planned,
      view,
      flags,
      inferredTarget: false,
      ...deployHooks(ctx, policy, { api, projectId: saved.projectId, branch }),
      ...(envWriter === undefined ? {} : { onSuccess: (applied) => envWriter.write({ api, projectId: saved.projectId, branchId: branch.id, branchName: branch.name, declaredDatabases: declaredDatabasesOf(policy.config), ...(applied === undefined ? {} : { applied }) }) }),
      execute: (granted, onEvent) =>
        engine.applyPlan(saved, {
          ...baseOptions,
          config: policy.config,
          ...granted,
          onEvent,
        }),
    });
  } catch (err) {
    if (!isPlatformError(err, ErrorCode.STALE_PLAN)) throw err;
    const details = err.details as { reason?: string; currentChangeCount?: number; expected?: unknown; actual?: unknown; differences?: StalePlanDifference[] };
    if ((details.reason === "state" || details.reason === "changes") && details.currentChangeCount === 0) return alreadyApplied();
    const lines = (details.differences ?? []).map((d) => `${d.item}: ${d.what}`);
    throw new PlatformError(ErrorCode.STALE_PLAN, staleMessage(name, saved, details, lines), { details: err.details, cause: err });
  }
}

function staleTarget(name: string, saved: SavedPlan, actual: string): PlatformError {
  return new PlatformError(ErrorCode.STALE_PLAN, `${shown(name)} targets branch ${shown(saved.branchName)} (${shown(saved.branchId)}) in ${shown(saved.projectId)}; this run targets ${shown(actual)}.`, {
    details: { reason: "target", expected: saved.branchId, actual },
  });
}

function short(value: unknown): string {
  const text = String(value);
  return text.length > 16 ? `${text.slice(0, 15)}…` : text;
}

function staleMessage(name: string, saved: SavedPlan, details: { reason?: string; expected?: unknown; actual?: unknown }, lines: readonly string[]): string {
  switch (details.reason) {
    case "target":
      return `${shown(name)} targets branch ${shown(saved.branchName)} (${shown(saved.branchId)}); this run targets ${shown(String(details.actual))}.`;
    case "state":
      return [`Branch ${shown(saved.branchName)} changed after the plan was made.`, ...(lines.length === 0 ? [] : ["What the plan would do differently now:", ...lines.map((l) => `  - ${shown(l)}`)])].join("\n");
    case "bundle":
      return `A function builds to a different bundle than planned (${short(details.expected)} vs ${short(details.actual)}).`;
    case "changes":
      return [`${shown(name)} does not match what the branch and the policy plan now (${lines.length} ${lines.length === 1 ? "difference" : "differences"}):`, ...lines.map((l) => `  - ${shown(l)}`)].join("\n");
    default:
      return `${shown(name)} no longer matches the branch or the policy.`;
  }
}
