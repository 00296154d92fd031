import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { locateFunction, type LocatedFunction } from "../../bundle/entry.js";
import { installedPackages } from "../../bundle/external-packages-installed.js";
import { checkSourcesInsideProject } from "../../engine/source-scope.js";
import type { BranchTarget, ResolvedPolicy } from "../../model/desired-state.js";
import { ErrorCode } from "../../errors/codes.js";
import { issueFieldLabel } from "../../errors/config-errors.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { CommandContext } from "../context.js";
import type { EnginePort } from "../engine-port.js";
import type { PolicyConfig } from "../../v1.js";
import { policyFiles } from "../files.js";
import { findLiteralSecrets } from "../literal-secrets.js";
import { invalidPolicyHint } from "../views/error-view.js";
import { shown } from "../views/outside-text.js";
import { stringifyDocument } from "../views/json-plan.js";
import { bundleCacheOption } from "../engine-tuning.js";
import { displayPath, loadEnv, loadPolicy, type LoadedPolicy, type PolicyFlags } from "./target-setup.js";

/** Flags of `svc config validate`. */
export interface ValidateFlags extends PolicyFlags {
  json?: boolean;
  /** commander's `--no-bundle` sets this to false. */
  bundle?: boolean;
  /** `--allow-external-sources`: sources outside the policy's directory are not an issue. */
  allowExternalSources?: boolean;
  /** commander's `--no-cache` sets this to false. */
  cache?: boolean;
}

/** One validation issue and the synthetic target it appeared for (`null` = the static policy). */
export interface ValidateIssue {
  path: string;
  message: string;
  target: string | null;
  /** The checks file the issue is in; absent for the policy's own issues. */
  file?: string;
}

/** The two synthetic targets validation resolves for: the default branch and a new preview branch. */
const TARGETS: { label: string; target: BranchTarget }[] = [
  { label: "default branch", target: { name: "main", exists: true, isDefault: true, isProtected: false } },
  { label: "new preview branch", target: { name: "preview", exists: false, isDefault: false, isProtected: false } },
];

function issuesOf(err: unknown, target: string | null): ValidateIssue[] | undefined {
  if (!isPlatformError(err)) return undefined;
  const details = err.details as { issues?: { path?: string; message?: string }[]; failures?: { slug?: string; message?: string }[] };
  if (Array.isArray(details.issues) && details.issues.length > 0) {
    return details.issues.map((i) => ({ path: i.path ?? "", message: i.message ?? "", target }));
  }
  if (err.code === ErrorCode.BUNDLE_FAILED && Array.isArray(details.failures)) {
    return details.failures.map((f) => ({ path: `functions.${f.slug ?? "?"}`, message: f.message ?? "", target }));
  }
  return [{ path: "", message: err.message.split("\n")[0] ?? "", target }];
}

function dedupe(issues: readonly ValidateIssue[]): ValidateIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function checkPolicy(engine: EnginePort, config: PolicyConfig, options: { bundle: boolean; allowExternalSources: boolean; cacheDir?: string }): Promise<ValidateIssue[]> {
  const { bundle } = options;
  const issues: ValidateIssue[] = [];
  const resolved: ResolvedPolicy[] = [];
  for (const { label, target } of TARGETS) {
    try {
      resolved.push(engine.resolvePolicy(config, target));
    } catch (err) {
      const found = issuesOf(err, label);
      if (found === undefined) throw err;
      issues.push(...found);
    }
  }
  if (!options.allowExternalSources) {
    for (const r of resolved) {
      try {
        await checkSourcesInsideProject(r);
      } catch (err) {
        issues.push(...(issuesOf(err, null) ?? []));
      }
    }
  }
  const functions = new Map(resolved.flatMap((r) => r.functions.map((f) => [f.slug, f] as const)));
  const located: LocatedFunction[] = [];
  for (const fn of functions.values()) {
    try {
      const found = await locateFunction(fn);
      const missing = await missingExternalPackages(found);
      issues.push(...missing);
      if (missing.length === 0) located.push(found);
    } catch (err) {
      issues.push({ path: `functions.${fn.slug}.source`, message: err instanceof Error ? err.message : String(err), target: null });
    }
  }
  if (bundle && located.length > 0) {
    // Built as plan builds them (the policy's directory as esbuild's), so both share cache entries.
    const baseDir = resolved[0]?.baseDir ?? null;
    try {
      const { bundleFunctions } = await import("../../bundle/bundle-many.js");
      // Offline: external packages stay external; staging them needs npm and the registry.
      await bundleFunctions(located, { stageExternalPackages: false, ...(baseDir === null ? {} : { workingDir: baseDir }), ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }) });
    } catch (err) {
      const found = issuesOf(err, null);
      if (found === undefined) throw err;
      issues.push(...found);
    }
  }
  return dedupe(issues);
}

/** An issue for each of the function's `externalPackages` not installed in the project (read offline). */
async function missingExternalPackages(fn: LocatedFunction): Promise<ValidateIssue[]> {
  const declared = fn.config.externalPackages ?? [];
  if (declared.length === 0 || fn.entry === null) return [];
  const { missing } = await installedPackages(declared, dirname(fn.entry));
  return missing.map((m) => ({ path: `functions.${fn.config.slug}.externalPackages[${declared.findIndex((p) => p.name === m.name)}]`, message: m.message, target: null }));
}

/**
 * The policy checks as plan would load them (`--checks FILE`, else `svc.checks.ts` beside the
 * policy): their file and names, or the issues that stop them loading, each naming the file.
 */
async function checkChecks(ctx: CommandContext, engine: EnginePort, flags: ValidateFlags, policy: LoadedPolicy | undefined): Promise<{ path: string | null; checks: { name: string; enforcement: string }[]; issues: ValidateIssue[] }> {
  if (policy === undefined && flags.checks === undefined) return { path: null, checks: [], issues: [] };
  try {
    const loaded = await engine.loadChecksFromFile({
      cwd: ctx.io.cwd,
      ...(flags.checks !== undefined ? { path: flags.checks } : policy === undefined ? {} : { policyPath: policy.resolvedPath }),
      ...(flags.evalTimeout === undefined ? {} : { evaluationTimeoutMs: flags.evalTimeout }),
    });
    const path = loaded.resolvedPath === undefined ? null : displayPath(ctx.io.cwd, loaded.resolvedPath);
    return { path, checks: loaded.checks.map((c) => ({ name: c.name, enforcement: c.enforcement })), issues: [] };
  } catch (err) {
    const found = issuesOf(err, null);
    if (found === undefined) throw err;
    const named = (err as { details?: { file?: unknown } }).details?.file;
    const file = typeof named === "string" ? displayPath(ctx.io.cwd, named) : (flags.checks ?? "the checks file");
    return { path: file, checks: [], issues: found.map((i) => ({ ...i, file })) };
  }
}

/** `svc.ts has 2 issues`, `svc.ts and svc.checks.ts have 3 issues`. */
function issuesHeading(configPath: string | null, issues: readonly ValidateIssue[]): string {
  const files = [...new Set(issues.map((i) => i.file ?? configPath ?? "the policy"))];
  return `${files.join(" and ")} ${files.length === 1 ? "has" : "have"} ${issues.length} issue${issues.length === 1 ? "" : "s"}`;
}

/** Warns on stderr about each secret-named variable whose value is written in the policy's files (never the value). */
async function warnLiteralSecrets(ctx: CommandContext, policy: LoadedPolicy): Promise<void> {
  const sources = (await policyFiles(policy.resolvedPath)).flatMap((file) => {
    try {
      // The files esbuild has already read; anything but a regular file is left out unread.
      return statSync(file).isFile() ? [{ file, text: readFileSync(file, "utf8") }] : [];
    } catch {
      return [];
    }
  });
  for (const found of findLiteralSecrets(policy.config, sources)) {
    ctx.err([
      `warning: ${found.path}: its value is written in ${shown(displayPath(ctx.io.cwd, found.file))}, so it is committed with the file; ` +
        `read it from the environment instead (process.env.${found.name}, set from an --env file or your CI's secrets)`,
    ]);
  }
}

/**
 * `svc config validate`: offline (no key, no network). Loads the `--env` files and
 * the policy, resolves it for the default branch and a new preview branch, checks every function
 * source and, unless `--no-bundle`, bundles each function (through the bundle cache unless `--no-cache`);
 * then loads the policy checks as plan does. Lists every issue; exit 1 if any.
 */
export async function runValidate(ctx: CommandContext, flags: ValidateFlags): Promise<number> {
  const engine = await ctx.engine();
  loadEnv(ctx, flags);
  let policy: LoadedPolicy | undefined;
  let failedFile: string | undefined;
  let issues: ValidateIssue[];
  try {
    policy = await loadPolicy(ctx, engine, flags);
    issues = await checkPolicy(engine, policy.config, {
      bundle: flags.bundle !== false,
      allowExternalSources: flags.allowExternalSources === true,
      ...bundleCacheOption(flags, policy.resolvedPath),
    });
  } catch (err) {
    const found = issuesOf(err, null);
    if (found === undefined || !isPlatformError(err) || (err.code !== ErrorCode.CONFIG_LOAD_FAILED && err.code !== ErrorCode.CONFIG_INVALID)) throw err;
    const details = err.details as { issues?: unknown[]; file?: unknown };
    if (!Array.isArray(details.issues) || details.issues.length === 0) throw err;
    if (typeof details.file === "string") failedFile = displayPath(ctx.io.cwd, details.file);
    issues = found;
  }
  if (policy !== undefined) await warnLiteralSecrets(ctx, policy);
  const configPath = policy?.relativePath ?? failedFile ?? (flags.config === undefined ? null : displayPath(ctx.io.cwd, flags.config));
  const checks = await checkChecks(ctx, engine, flags, policy);
  issues = [...issues, ...checks.issues];
  if (flags.json === true) {
    ctx.out(stringifyDocument({ formatVersion: 1, command: "validate", configPath, valid: issues.length === 0, issues, checksPath: checks.path, checks: checks.checks }));
    ctx.documentPrinted = true;
    return issues.length === 0 ? 0 : 1;
  }
  if (issues.length === 0) {
    const count = checks.checks.length;
    const checked = checks.path === null ? "" : `; ${checks.path} holds ${count} check${count === 1 ? "" : "s"}`;
    ctx.out([`${configPath ?? "svc.ts"} is valid${flags.bundle === false ? " (bundling skipped)" : ""}${checked}.`]);
    return 0;
  }
  ctx.err([`error PLATFORM_CONFIG_INVALID: ${issuesHeading(configPath, issues)}:`]);
  for (const issue of issues) {
    const where = issue.file === undefined ? "" : `${issue.file}: `;
    ctx.err([`  - ${where}${issueFieldLabel(issue.path)}: ${issue.message}${issue.target === null ? "" : ` [${issue.target}]`}`]);
  }
  const files = [...new Set(issues.map((i) => i.file ?? configPath ?? undefined))];
  ctx.err([`  hint: ${invalidPolicyHint(files.length === 1 ? files[0] : files.filter((f) => f !== undefined).join(" and "))}`]);
  return 1;
}
