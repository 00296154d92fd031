/**
 * `svc dev`: runs the functions of `svc.ts` locally, each in its own process on its own port,
 * bundled as a deployment bundles them (plus inline source maps), with the target branch's
 * platform variables, hot reload, a request log and `--trigger`. Ctrl-C or SIGTERM stops every
 * child; a killed `svc dev` leaves none either (each child exits when its parent goes away).
 */
import { basename, extname, resolve } from "node:path";
import { checkSourcesInsideProject } from "../../engine/source-scope.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { BranchTarget, ResolvedFunction, ResolvedPolicy } from "../../model/desired-state.js";

type ResolvedTrigger = ResolvedPolicy["triggers"][number];
import type { CommandContext } from "../context.js";
import type { TargetFlags } from "../target.js";
import { readBranchEnv, type BranchEnvReading } from "../dev/branch-env.js";
import type { DevLog } from "../dev/dev-function.js";
import { DevOutput } from "../dev/dev-output.js";
import { DevSession } from "../dev/dev-session.js";
import { findTrigger, sendTriggerInvocation } from "../dev/dev-trigger.js";
import { renderBanner, renderPrefixed, renderRequestLine } from "../dev/dev-view.js";
import { shown } from "../views/outside-text.js";
import { branchLabel, loadEnv, loadPolicy, resolveTarget, type LoadedPolicy, type PolicyFlags, type Target } from "./target-setup.js";
import { watchNpmLauncher } from "../../runtime/launcher-watch.js";

/** Flags of `svc dev`. */
export interface DevFlags extends TargetFlags, PolicyFlags {
  /** One module instead of the functions of `svc.ts`. */
  source?: string;
  /** The port of `--source`. */
  port?: number;
  /** commander's `--no-branch-env` sets this to false. */
  branchEnv?: boolean;
  /** A trigger to send once to its local function. */
  trigger?: string;
  /** The object key a storage trigger's invocation reports. */
  objectKey?: string;
  /** `--allow-external-sources`: serve sources that resolve outside the policy's directory, as a deployment would ship them. */
  allowExternalSources?: boolean;
}

/** The branch closure's input when no branch is read: the default branch. */
const OFFLINE_TARGET: BranchTarget = Object.freeze({ name: "main", exists: true, isDefault: true, isProtected: false });

function branchTargetOf(target: Target): BranchTarget {
  const b = target.branch;
  return Object.freeze({
    name: b.name,
    id: b.id,
    exists: true,
    isDefault: b.default,
    isProtected: b.protected,
    ...(b.parent_id === undefined || b.parent_id === null ? {} : { parentId: b.parent_id }),
    ...(b.expires_at === undefined || b.expires_at === null ? {} : { expiresAt: b.expires_at }),
    createdAt: b.created_at,
  });
}

/** `--source FILE` as a function: slug from the file name (`a–z0–9`, at most 20), esbuild, no env. */
export function sourceFunction(cwd: string, source: string): ResolvedFunction {
  const path = resolve(cwd, source);
  const stem = basename(path, extname(path)).toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 20);
  const slug = stem === "" || stem === "index" ? basename(resolve(path, "..")).toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 20) || "dev" : stem;
  return { slug, name: slug, sourcePath: path, env: {}, runtime: "nodejs24", bundler: "esbuild", sourcemap: false, customDomains: [] };
}

/** `--port`, else `PORT` (both 1–65535), else none (the first free port from 8787). */
function sourcePort(flags: DevFlags, env: CommandContext["io"]["env"]): number | undefined {
  if (flags.port !== undefined) return flags.port;
  const raw = env.PORT;
  if (raw === undefined || raw.trim() === "") return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new CliError(CliErrorCode.USAGE, `PORT=${JSON.stringify(raw)} is not a port.`, { hint: "Set PORT to an integer from 1 to 65535, or pass --port." });
  return port;
}

function hasApiKey(ctx: CommandContext, flags: DevFlags): boolean {
  return (flags.apiKey ?? ctx.io.env.SVC_API_KEY ?? "").trim() !== "";
}

function envSourceLine(flags: DevFlags, target: Target | undefined): string {
  if (target !== undefined) return `Platform variables from branch ${target.branch.name} (${target.branch.id}) of project ${target.project.id} [${branchLabel(target)}].`;
  const why = flags.branchEnv === false ? "--no-branch-env" : "no API key: set SVC_API_KEY or pass --api-key to use a branch's";
  return `No platform variables (${why}); the functions see this shell's environment and their env from svc.ts.`;
}

function devLog(ctx: CommandContext): DevLog {
  return {
    info: (slug, text) => {
      if (!ctx.quiet) ctx.out(renderPrefixed(slug, text));
    },
    error: (slug, text) => ctx.err(renderPrefixed(slug, text)),
    request: (slug, record) => {
      if (!ctx.quiet) ctx.out([renderRequestLine(slug, record)]);
      if (record.error !== undefined) ctx.err(renderPrefixed(slug, record.error));
    },
    output: (slug, line, stream) => (stream === "stdout" ? ctx.out([`[${slug}] ${line}`]) : ctx.err([`[${slug}] ${line}`])),
  };
}

/**
 * Resolves once Ctrl-C (the context's signal) or SIGTERM asks to stop, or the `npx`/`npm exec`
 * that started svc dev has exited (its SIGTERM never reaches this process).
 */
function untilStopped(ctx: CommandContext): Promise<void> {
  return new Promise((done) => {
    const finish = (): void => {
      unwatch();
      process.off("SIGTERM", finish);
      process.off("disconnect", finish);
      ctx.signal.removeEventListener("abort", finish);
      done();
    };
    const unwatch = watchNpmLauncher(ctx.io.env, finish);
    if (ctx.signal.aborted) return finish();
    ctx.signal.addEventListener("abort", finish, { once: true });
    process.once("SIGTERM", finish);
    // Started by a Node.js parent with an IPC channel (a test runner, a tool): stop when it goes away.
    if (process.connected) process.once("disconnect", finish);
  });
}

/** How much coarser than Date.now() the file system's modification times may be. */
const FS_CLOCK_MARGIN_MS = 20;

/**
 * `svc dev [--source FILE [--port N]] [--branch REF] [--no-branch-env] [--env FILE…] [--config PATH] [--trigger NAME]`.
 * Serves until Ctrl-C or SIGTERM, then stops every child and exits 0. A taken `dev.port`, a
 * policy that does not load, or an unknown `--trigger` fails before anything starts.
 */
export async function runDev(ctx: CommandContext, flags: DevFlags): Promise<number> {
  // An IPC channel from a Node.js parent must not keep svc dev alive after it is done; its loss still stops it.
  process.channel?.unref();
  if (flags.port !== undefined && flags.source === undefined) {
    throw new CliError(CliErrorCode.USAGE, "--port goes with --source; the functions of svc.ts take their dev.port or a free port from 8787.", { hint: "Set functions.<slug>.dev.port in svc.ts, or add --source FILE." });
  }
  if (flags.trigger !== undefined && flags.source !== undefined) {
    throw new CliError(CliErrorCode.USAGE, "--trigger names a trigger of svc.ts; it does not go with --source.", { hint: "Drop --source to serve the functions of svc.ts." });
  }
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  // The file system stamps modifications with a clock coarser than Date.now(): a margin so that an
  // edit right after the read is never taken for one before it (at worst, one rebuild too many).
  const readAt = Date.now() - FS_CLOCK_MARGIN_MS;
  const policy: LoadedPolicy | undefined = flags.source === undefined ? await loadPolicy(ctx, engine, flags) : undefined;
  const target = flags.branchEnv !== false && hasApiKey(ctx, flags) ? await resolveTarget(ctx, engine, flags, origins) : undefined;
  const branchTarget = target === undefined ? OFFLINE_TARGET : branchTargetOf(target);
  const resolvePolicy = async (reload: boolean) => {
    const loaded = reload && policy !== undefined ? await loadPolicy(ctx, engine, flags) : policy;
    if (loaded === undefined) return undefined;
    const desired = engine.resolvePolicy(loaded.config, branchTarget);
    // What runs locally is what deploys: a source a deployment would refuse is refused here too.
    if (flags.allowExternalSources !== true) await checkSourcesInsideProject(desired);
    return desired;
  };
  const resolved = await resolvePolicy(false);
  const definitions = resolved?.functions ?? [sourceFunction(ctx.io.cwd, flags.source ?? "")];
  const trigger: ResolvedTrigger | undefined = flags.trigger === undefined ? undefined : findTrigger(resolved?.triggers ?? [], flags.trigger);
  if (definitions.length === 0) throw new CliError(CliErrorCode.USAGE, "svc.ts declares no functions: nothing to serve.", { hint: "Declare one under `functions`, or serve one module with --source FILE." });

  let reading: BranchEnvReading | undefined;
  if (target !== undefined) {
    const shape = resolved ?? { auth: "unmanaged" as const, dataApi: { state: "unmanaged" as const }, aiGateway: false, buckets: [] };
    reading = await readBranchEnv({ api: target.api, projectId: target.project.id, branchId: target.branch.id, branchName: target.branch.name }, { ...shape, config: policy?.config });
    ctx.scrubber.add(...reading.secrets);
  }
  const projectDir = resolved?.baseDir ?? ctx.io.cwd;
  const port = flags.source === undefined ? undefined : sourcePort(flags, ctx.io.env);
  const output = new DevOutput(projectDir);
  const session = new DevSession({
    output,
    workingDir: resolved?.baseDir ?? undefined,
    platform: reading?.values,
    inherited: ctx.io.env,
    log: devLog(ctx),
    ...(policy === undefined ? {} : { policyFile: policy.resolvedPath }),
    reloadPolicy: async () => (await resolvePolicy(true))?.functions ?? [],
    onPolicyError: (err) => ctx.err(renderPrefixed("svc.ts", `${err instanceof Error ? err.message : String(err)}\nthe functions keep running as they were`)),
    ...(port === undefined ? {} : { fixedPorts: new Map([[definitions[0]?.slug ?? "dev", port]]) }),
    readAt,
  });
  const stopped = untilStopped(ctx);
  try {
    await session.start(definitions);
    ctx.out(renderBanner({
      functions: session.functions.map((f) => ({ slug: f.slug, url: f.url, serving: f.serving, envNames: session.envNames(f.slug) })),
      envSource: envSourceLine(flags, target),
      notes: reading?.notes ?? [],
      nodeVersion: process.versions.node,
    }));
    // Sent alongside serving: a handler that never answers must not keep Ctrl-C from stopping svc dev.
    const sending = new AbortController();
    if (trigger !== undefined) void fireOnce(ctx, session, { trigger, target, objectKey: flags.objectKey, signal: sending.signal });
    await stopped;
    sending.abort();
  } finally {
    await session.stop();
  }
  ctx.err(["svc dev stopped; no function process is left."]);
  return 0;
}

/** What `--trigger` sends, and the signal that abandons it when svc dev stops. */
interface FireOnce {
  trigger: ResolvedTrigger;
  target: Target | undefined;
  objectKey: string | undefined;
  signal: AbortSignal;
}

async function fireOnce(ctx: CommandContext, session: DevSession, { trigger, target, objectKey, signal }: FireOnce): Promise<void> {
  const fn = session.get(trigger.function);
  if (fn === undefined || !fn.serving) {
    ctx.err([`Trigger ${shown(trigger.name)} was not sent: its function ${trigger.function} is not serving.`]);
    return;
  }
  let liveId: string | undefined;
  if (target !== undefined) {
    const live = await target.api.listTriggers({ projectId: target.project.id, branchId: target.branch.id }).catch(() => []);
    liveId = live.find((t) => t.name === trigger.name)?.trigger_id;
  }
  try {
    const sent = await sendTriggerInvocation({ trigger, functionUrl: fn.url, ...(liveId === undefined ? {} : { liveId }), ...(objectKey === undefined ? {} : { objectKey }), now: new Date(ctx.io.now()), signal });
    const note = trigger.enabled ? "" : " (the trigger is disabled in svc.ts: the platform would not fire it)";
    ctx.out([`Trigger ${shown(trigger.name)} sent to ${trigger.function} (invocation ${sent.invocationId}): ${sent.status}${note}`]);
  } catch (err) {
    if (signal.aborted) return;
    ctx.err([`Trigger ${shown(trigger.name)} could not be sent to ${trigger.function}: ${shown(err instanceof Error ? err.message : String(err))}`]);
  }
}
