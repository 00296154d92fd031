import { relative, sep } from "node:path";
import type { ApiBranch, ApiProject, PlatformApi } from "../../api/platform-api.js";
import type { CommandContext } from "../context.js";
import type { EnginePort } from "../engine-port.js";
import type { Check, PolicyConfig } from "../../v1.js";
import { loadEnvFiles, type EnvOrigins } from "../env-files.js";
import { createProxyAwareFetch, proxySettings } from "../http.js";
import { resolveBranch, resolveCredentials, type BranchMatch, type ResolvedCredentials, type TargetFlags } from "../target.js";
import { renderTargetBlock, renderTargetLine, type EchoInfo } from "../views/target-echo.js";
import type { ViewTarget } from "../views/view-model.js";

/** Flags of commands that load a policy. */
export interface PolicyFlags {
  config?: string;
  env?: string[];
  /** `--eval-timeout`, converted to milliseconds. */
  evalTimeout?: number;
  /** `--checks FILE`: the policy checks (default: `svc.checks.ts` beside the policy, if any). */
  checks?: string;
}

/** A loaded policy and how it was found. */
export interface LoadedPolicy {
  config: PolicyConfig;
  resolvedPath: string;
  /** Relative to the working directory, `/` separators. */
  relativePath: string;
  label: "--config" | "search";
  /** The policy checks an applying command runs over its plans ({@link loadPolicyWithChecks}); absent when none were looked for or found. */
  checks?: readonly Check[];
  /** The checks file the checks came from. */
  checksPath?: string;
}

/** Loads the `--env` files (in order, before the policy is evaluated). */
export function loadEnv(ctx: CommandContext, flags: PolicyFlags): EnvOrigins {
  return loadEnvFiles(flags.env ?? [], ctx.io, ctx.scrubber);
}

/**
 * The string entries of each function's `env` in both homes the loaded policy may declare
 * functions in: `functions` and the deprecated `preview.functions` (anything else is skipped:
 * validation reports it). Both homes are read even when validation will refuse the pair, so a
 * value never reaches an error or a check's message unscrubbed.
 */
export function declaredFunctionEnvs(value: unknown): Record<string, string>[] {
  return declaredFunctionEnvsBySlug(value).map(({ env }) => env);
}

/** {@link declaredFunctionEnvs}, each with the slug it is declared under. */
export function declaredFunctionEnvsBySlug(value: unknown): { slug: string; env: Record<string, string> }[] {
  if (typeof value !== "object" || value === null) return [];
  const preview = (value as { preview?: unknown }).preview;
  const homes = [(value as { functions?: unknown }).functions, typeof preview === "object" && preview !== null ? (preview as { functions?: unknown }).functions : undefined];
  const envs: { slug: string; env: Record<string, string> }[] = [];
  for (const functions of homes) {
    if (typeof functions !== "object" || functions === null) continue;
    for (const [slug, fn] of Object.entries(functions)) {
      const env = (fn as { env?: unknown } | null)?.env;
      if (typeof env === "object" && env !== null) {
        envs.push({ slug, env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string")) });
      }
    }
  }
  return envs;
}

/** Relative to `cwd` with `/` separators. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

/** Loads `svc.ts` (`--config` or the search) and adds its function env values to the scrubber. */
export async function loadPolicy(ctx: CommandContext, engine: EnginePort, flags: PolicyFlags): Promise<LoadedPolicy> {
  const limit = flags.evalTimeout === undefined ? {} : { evaluationTimeoutMs: flags.evalTimeout };
  const loaded = await engine.loadConfigFromFile(flags.config === undefined ? { cwd: ctx.io.cwd, ...limit } : { path: flags.config, cwd: ctx.io.cwd, ...limit });
  ctx.scrubber.add(...declaredFunctionEnvs(loaded.config).flatMap((env) => Object.values(env)));
  return {
    config: loaded.config,
    resolvedPath: loaded.resolvedPath,
    relativePath: displayPath(ctx.io.cwd, loaded.resolvedPath),
    label: flags.config === undefined ? "search" : "--config",
  };
}

/**
 * {@link loadPolicy}, then the policy checks: `--checks FILE`, else `svc.checks.ts` (`.mts`,
 * `.js`, `.mjs`) beside the policy, evaluated under the same time limit. Says on stderr which
 * file was loaded; no file, no checks.
 */
export async function loadPolicyWithChecks(ctx: CommandContext, engine: EnginePort, flags: PolicyFlags): Promise<LoadedPolicy> {
  const policy = await loadPolicy(ctx, engine, flags);
  const loaded = await engine.loadChecksFromFile({
    cwd: ctx.io.cwd,
    ...(flags.checks === undefined ? { policyPath: policy.resolvedPath } : { path: flags.checks }),
    ...(flags.evalTimeout === undefined ? {} : { evaluationTimeoutMs: flags.evalTimeout }),
  });
  if (loaded.resolvedPath === undefined) return policy;
  const count = loaded.checks.length;
  ctx.info([`Checks: ${displayPath(ctx.io.cwd, loaded.resolvedPath)} (${count} check${count === 1 ? "" : "s"})`]);
  return { ...policy, checks: loaded.checks, checksPath: loaded.resolvedPath };
}

/** The engine's `checks` option for a loaded policy: present only when a checks file was loaded. */
export function checksOption(policy: LoadedPolicy): { checks?: readonly Check[] } {
  return policy.checks === undefined ? {} : { checks: policy.checks };
}

/** The target a command runs against, resolved and ready. */
export interface Target {
  api: PlatformApi;
  creds: ResolvedCredentials;
  project: ApiProject;
  branch: ApiBranch;
  match: BranchMatch;
}

/** Credentials, API client (proxy-aware fetch) and, unless told otherwise, the project. */
export async function connect(
  ctx: CommandContext,
  engine: EnginePort,
  flags: TargetFlags,
  origins: EnvOrigins,
  onCredentials?: (creds: ResolvedCredentials) => void,
): Promise<{ api: PlatformApi; creds: ResolvedCredentials }> {
  const creds = resolveCredentials(flags, ctx.io, origins, { project: true });
  onCredentials?.(creds);
  ctx.scrubber.add(creds.apiKey.value);
  if (creds.apiHost.insecure) {
    ctx.err([`warning: --api-host ${creds.apiHost.value} uses http: the API key travels in clear text.`]);
  }
  return { api: platformApiFor(ctx, engine, creds, ctx.signal), creds };
}

function platformApiFor(ctx: CommandContext, engine: EnginePort, creds: ResolvedCredentials, signal: AbortSignal): PlatformApi {
  return engine.createPlatformApi({
    apiKey: creds.apiKey.value,
    apiHost: creds.apiHost.value,
    fetch: createProxyAwareFetch(ctx.io.env),
    signal,
  });
}

/**
 * The target's reads (the project, then its branches) started before the policy is loaded, so
 * they are in flight while `svc.ts` is evaluated. Only {@link resolveTarget} uses the result, and
 * only when the credentials it resolves afterwards and the proxy variables are the same; otherwise, and when the command
 * ends before that, {@link EarlyTarget.discard} aborts the reads. Nothing is reported from here: a
 * policy error still comes first, then a credential error, the insecure-host warning, and the
 * reads' own errors, as when the reads start after the policy.
 */
export interface EarlyTarget {
  creds: ResolvedCredentials;
  /** The proxy variables its client was made with ({@link proxySettings}). */
  proxies: string;
  reading: Promise<Target>;
  /** Aborts the reads if they are still in flight; their result is never used. */
  discard(): void;
}

/**
 * Whether Node verifies no TLS server (`NODE_TLS_REJECT_UNAUTHORIZED=0`): read by Node at each new
 * connection, so a policy can change it for the connections made after it ran.
 * (`NODE_EXTRA_CA_CERTS` is read once, at process start: a policy cannot change it for any read.)
 */
function tlsUnverified(ctx: CommandContext): boolean {
  return ctx.io.env.NODE_TLS_REJECT_UNAUTHORIZED === "0";
}

/**
 * Starts the target's reads now when the credentials resolve, the API host is https or loopback
 * and Node verifies TLS servers; `undefined` otherwise (a plain-http host is warned about before
 * the key is sent; with verification off the key is sent only once the policy has run, which may
 * turn it back on, and over connections made after it; a credential error is reported after the
 * policy's).
 */
export function startTargetReads(ctx: CommandContext, engine: EnginePort, flags: TargetFlags, origins: EnvOrigins): EarlyTarget | undefined {
  let creds: ResolvedCredentials;
  try {
    creds = resolveCredentials(flags, ctx.io, origins, { project: true });
  } catch {
    return undefined;
  }
  if (creds.apiHost.insecure || tlsUnverified(ctx)) return undefined;
  ctx.scrubber.add(creds.apiKey.value);
  const controller = new AbortController();
  const api = platformApiFor(ctx, engine, creds, AbortSignal.any([ctx.signal, controller.signal]));
  const reading = readTarget(api, creds);
  reading.catch(() => undefined); // awaited by resolveTarget, or discarded
  return { creds, proxies: proxySettings(ctx.io.env), reading, discard: () => controller.abort() };
}

/**
 * The project and its branch, read at once; a failed project read is the error reported (as when
 * the branch was read after it), whatever the branch read did.
 */
async function readTarget(api: PlatformApi, creds: ResolvedCredentials): Promise<Target> {
  const reading = api.getProject({ projectId: creds.projectId.value });
  const resolving = resolveBranch(api, creds.projectId.value, creds.branchRef);
  resolving.catch(() => undefined); // awaited below, or superseded by the project's error
  const project = await reading;
  const { branch, match } = await resolving;
  return { api, creds, project, branch, match };
}

/**
 * Whether the early reads were made as a client made now would make them: the same credentials
 * (every value, source and label), proxies, and TLS verification (on: early reads start only then).
 */
function sameConnection(ctx: CommandContext, early: EarlyTarget, creds: ResolvedCredentials): boolean {
  return JSON.stringify(early.creds) === JSON.stringify(creds) && early.proxies === proxySettings(ctx.io.env) && !tlsUnverified(ctx);
}

/**
 * Resolves credentials, project and branch; `onCredentials` runs as soon as the credentials are
 * known, before any request of this call. With `early` ({@link startTargetReads}), its reads are
 * the target's when the credentials resolved now and the proxy variables are the same (a policy
 * may have changed `process.env`); otherwise they are discarded and the target is read afresh.
 */
export async function resolveTarget(
  ctx: CommandContext,
  engine: EnginePort,
  flags: TargetFlags,
  origins: EnvOrigins,
  onCredentials?: (creds: ResolvedCredentials) => void,
  early?: EarlyTarget,
): Promise<Target> {
  let connected: { api: PlatformApi; creds: ResolvedCredentials };
  try {
    connected = await connect(ctx, engine, flags, origins, onCredentials);
  } catch (err) {
    early?.discard();
    throw err;
  }
  if (early !== undefined && sameConnection(ctx, early, connected.creds)) return early.reading;
  early?.discard();
  return readTarget(connected.api, connected.creds);
}

/** The echo's branch label. */
export function branchLabel(target: Target): string {
  if (target.match === "default") return "default branch: no --branch or SVC_BRANCH_ID";
  const ref = target.creds.branchRef;
  if (ref === undefined) return "default";
  return ref.source === "flag" ? `--branch, matched by ${target.match}` : ref.label;
}

/** The echo data of a resolved target. */
export function echoInfo(target: Target, policy: LoadedPolicy | undefined): EchoInfo {
  return {
    project: { id: target.project.id, name: target.project.name, label: target.creds.projectId.label },
    branch: { name: target.branch.name, id: target.branch.id, protected: target.branch.protected, isDefault: target.branch.default, label: branchLabel(target) },
    api: { host: target.creds.apiHost.value, label: target.creds.apiHost.label, insecure: target.creds.apiHost.insecure },
    ...(policy === undefined ? {} : { config: { path: policy.relativePath, label: policy.label } }),
    keyLabel: target.creds.apiKey.label,
  };
}

/** Prints the target echo to stderr: a block in text mode, one line with `--json`, `--markdown` or `--quiet`. */
export function printEcho(ctx: CommandContext, info: EchoInfo, compact: boolean): void {
  ctx.err(compact || ctx.quiet ? renderTargetLine(info) : renderTargetBlock(info));
}

/** The view target of a resolved target. */
export function viewTarget(target: Omit<Target, "api">, configPath: string): ViewTarget {
  return {
    projectId: target.project.id,
    projectName: target.project.name,
    orgId: target.project.org_id ?? null,
    branchId: target.branch.id,
    branchName: target.branch.name,
    branchProtected: target.branch.protected,
    branchIsDefault: target.branch.default,
    apiHost: target.creds.apiHost.value,
    configPath,
    sources: {
      projectId: target.creds.projectId.source,
      branch: target.match === "default" ? "default" : (target.creds.branchRef?.source ?? "default"),
      apiKey: target.creds.apiKey.source,
      apiHost: target.creds.apiHost.source,
    },
  };
}
