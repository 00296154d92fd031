/**
 * `svc emulator [flags]`: parses the flags, starts the emulator, prints exactly
 * the five `SVC_*=` lines on stdout once it listens, and runs until SIGTERM (exit 0) or SIGINT
 * (exit 130). Everything else goes to stderr. The CLI loads this module lazily.
 */
import { Command, CommanderError } from "commander";
import { ErrorCode, PlatformError, isPlatformError } from "../errors/index.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "./index.js";
import { watchNpmLauncher } from "../runtime/launcher-watch.js";
import type { EmulatorTimings } from "./store/world.js";
import { writeStderrNow } from "./stderr-lines.js";

const TIMING_KEYS: Readonly<Record<string, keyof EmulatorTimings>> = Object.freeze({
  op_sched: "opSchedulingMs",
  op_run: "opRunMs",
  deploy_pending: "deployPendingMs",
  deploy_build: "deployBuildMs",
  domain_active: "domainActivationMs",
  claim_transfer: "claimTransferMs",
});

/** A flag value the emulator cannot use (exit 1). */
function usageProblem(message: string): PlatformError {
  return new PlatformError(ErrorCode.INVALID_OPTIONS, message);
}

/** Parses `--timings op_sched=0,op_run=200,…`; a bare `0` makes everything instant. */
export function parseTimings(spec: string): Partial<EmulatorTimings> {
  if (spec.trim() === "0") return Object.fromEntries(Object.values(TIMING_KEYS).map((k) => [k, 0]));
  const out: Partial<EmulatorTimings> = {};
  for (const item of spec.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const [name = "", value = ""] = item.split("=");
    const key = TIMING_KEYS[name];
    if (key === undefined) throw usageProblem(`--timings: unknown timing "${name}"; use ${Object.keys(TIMING_KEYS).join(", ")}`);
    if (!/^\d+$/.test(value)) throw usageProblem(`--timings: ${name} needs a whole number of ms, got "${value}"`);
    out[key] = Number(value);
  }
  return out;
}

/** Parses `--latency MS` or `MIN-MAX`. */
export function parseLatency(spec: string): number | [number, number] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(spec.trim());
  if (m === null) throw usageProblem(`--latency: "${spec}" is not MS or MIN-MAX (e.g. 20 or 10-50)`);
  const min = Number(m[1]);
  if (m[2] === undefined) return min;
  const max = Number(m[2]);
  if (max < min) throw usageProblem(`--latency: ${spec} has its minimum above its maximum`);
  return [min, max];
}

function integer(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw usageProblem(`${flag}: "${value}" is not a whole number`);
  return Number(value);
}

function positive(flag: string, value: string): number {
  const n = integer(flag, value);
  if (n < 1) throw usageProblem(`${flag}: must be at least 1 ms`);
  return n;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

function buildProgram(): Command {
  return new Command("svc emulator")
    .description("Run the local emulator of the platform's management API. Branch databases are records only: their connection URIs use *.emulator.invalid hosts and point at nothing.")
    .option("--port <n>", "listen port; 0 = a random free port", "4010")
    .option("--host <h>", "bind address (non-loopback prints a warning: keys are test credentials)", "127.0.0.1")
    .option("--seed <file>", "JSON seed document (default: the built-in seed)")
    .option("--latency <ms>", "delay before each API request: MS or MIN-MAX", "0")
    .option("--faults <plan>", "fault plan, e.g. status=503,rate=0.1;reset=0.02")
    .option("--fault-seed <n>", "seed of the fault and latency PRNG", "1")
    .option("--timings <spec>", "op_sched,op_run,deploy_pending,deploy_build,domain_active,claim_transfer in ms; 0 = instant")
    .option("--api-key <key>", "fix the bootstrap key (default: generated)")
    .option("--id-seed <n>", "deterministic ids, passwords and tokens")
    .option("--clock <mode>", "system or manual", "system")
    .option("--postgres <target>", "PostgreSQL for claimable databases: embedded or a postgresql:// URL", "embedded")
    .option("--postgres-url <url>", "alias of --postgres URL")
    .option("--pg-port <n>", "local direct port of claimable databases; 0 = a free port", "0")
    .option("--pooler-port <n>", "local pooled port of claimable databases; 0 = a free port", "0")
    .option("--data-dir <dir>", "persist state in DIR: every acknowledged change survives a crash")
    .option("--real-databases", "branches get real PostgreSQL databases and connection_uri connects (default: URIs point at nothing)")
    .option("--legacy-auth <mode>", "legacy auth routes after their removal date: serve or gone (410)", "serve")
    .option("--function-timeout <ms>", "a deployed function with no response after MS gets a 504 (a trigger delivery fails)", "900000")
    .option("--function-idle <ms>", "stop a function process after MS without a request", "300000")
    .option("--verbose", "log one line per request on stderr")
    .option("--log-format <format>", "text or json", "text")
    .addHelpText("after", "\nExamples:\n  $ svc emulator\n  $ svc emulator --port 0 --latency 20-80 --faults status=503,rate=0.1\n  $ svc emulator --data-dir .svc-emulator --real-databases\n")
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stderr.write(s), writeErr: (s) => process.stderr.write(s) });
}

interface CliFlags {
  port: string;
  host: string;
  seed?: string;
  latency: string;
  faults?: string;
  faultSeed: string;
  timings?: string;
  apiKey?: string;
  idSeed?: string;
  clock: string;
  verbose?: boolean;
  logFormat: string;
  postgres: string;
  postgresUrl?: string;
  pgPort: string;
  poolerPort: string;
  dataDir?: string;
  realDatabases?: boolean;
  legacyAuth: string;
  functionTimeout: string;
  functionIdle: string;
}

function toOptions(flags: CliFlags): EmulatorOptions {
  if (flags.clock !== "system" && flags.clock !== "manual") throw usageProblem(`--clock: use system or manual, not "${flags.clock}"`);
  if (flags.logFormat !== "text" && flags.logFormat !== "json") throw usageProblem(`--log-format: use text or json, not "${flags.logFormat}"`);
  if (flags.legacyAuth !== "serve" && flags.legacyAuth !== "gone") throw usageProblem(`--legacy-auth: use serve or gone, not "${flags.legacyAuth}"`);
  return {
    port: integer("--port", flags.port),
    host: flags.host,
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    latencyMs: parseLatency(flags.latency),
    ...(flags.faults !== undefined ? { faults: flags.faults } : {}),
    faultSeed: integer("--fault-seed", flags.faultSeed),
    ...(flags.timings !== undefined ? { timings: parseTimings(flags.timings) } : {}),
    ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
    ...(flags.idSeed !== undefined ? { idSeed: integer("--id-seed", flags.idSeed) } : {}),
    clock: flags.clock,
    log: flags.verbose === true ? flags.logFormat : "off",
    postgres: flags.postgresUrl ?? flags.postgres,
    pgPort: integer("--pg-port", flags.pgPort),
    poolerPort: integer("--pooler-port", flags.poolerPort),
    ...(flags.dataDir !== undefined ? { dataDir: flags.dataDir } : {}),
    ...(flags.realDatabases === true ? { realDatabases: true } : {}),
    legacyAuthAfterSunset: flags.legacyAuth,
    // Invocations of deployed functions are the app's own traffic: always one line each on stderr.
    functions: { timeoutMs: positive("--function-timeout", flags.functionTimeout), idleMs: positive("--function-idle", flags.functionIdle), log: flags.logFormat },
  };
}

/** The five `NAME=value` lines `svc emulator` prints once it listens (API host, key, project, default branch, claim API host). */
export function formatReadyLines(emu: Pick<RunningEmulator, "apiHost" | "apiKey" | "projectId" | "defaultBranchId" | "claimApiHost">): string {
  return `${[
    `SVC_API_HOST=${emu.apiHost}`,
    `SVC_API_KEY=${emu.apiKey}`,
    `SVC_PROJECT_ID=${emu.projectId}`,
    `SVC_BRANCH_ID=${emu.defaultBranchId}`,
    `SVC_CLAIM_API_HOST=${emu.claimApiHost}`,
  ].join("\n")}\n`;
}

/**
 * Runs `svc emulator ARGS`; resolves with the exit code: 0 after SIGTERM, 130 after SIGINT,
 * 1 for bad arguments or seed, 2 when the port or the data-dir lock is unavailable, 3 when the
 * data dir is corrupt.
 */
export async function runEmulatorCli(argv: string[]): Promise<number> {
  let flags: CliFlags;
  let options: EmulatorOptions;
  try {
    flags = buildProgram().parse(argv, { from: "user" }).opts<CliFlags>();
    options = toOptions(flags);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    writeStderrNow(`svc emulator: ${(err as Error).message}\n`);
    return 1;
  }
  if (!LOOPBACK.test(flags.host)) {
    writeStderrNow(`svc emulator: warning: listening on ${flags.host}, not loopback; the printed key is a test credential, keep the emulator off shared networks\n`);
  }
  let emu: RunningEmulator;
  try {
    emu = await startEmulator(options);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "EADDRINUSE" || code === "EACCES") {
      writeStderrNow(`svc emulator: port ${flags.port} on ${flags.host} is unavailable (${String(code)}); choose another with --port, or --port 0 for a free one\n`);
      return 2;
    }
    writeStderrNow(`svc emulator: ${isPlatformError(err) ? err.message : (err as Error).message}\n`);
    const reason = isPlatformError(err) ? (err.details as { reason?: unknown } | undefined)?.reason : undefined;
    return reason === "locked" ? 2 : reason === "corrupt" ? 3 : 1;
  }
  const databases = flags.realDatabases === true ? "branches have real PostgreSQL databases: connection URIs and endpoint hosts connect" : "branch databases are records only; their hosts end in .emulator.invalid (--real-databases makes them connect)";
  writeStderrNow(`svc emulator: listening on ${emu.url} (${databases})\n`);
  process.stdout.write(formatReadyLines(emu));
  // The server does not hold the process open by itself; the command does until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  return new Promise<number>((resolve) => {
    const stop = (code: number, why = "") => () => {
      clearInterval(keepAlive);
      unwatch();
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      process.off("SIGHUP", onHup);
      writeStderrNow(`svc emulator: stopping${why}\n`);
      void emu.close().then(() => resolve(code));
    };
    const onInt = stop(130);
    const onTerm = stop(0);
    // A hangup (its terminal closed) stops it as SIGTERM does, so the log lines still waiting are written.
    const onHup = stop(129);
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    process.once("SIGHUP", onHup);
    const unwatch = watchNpmLauncher(process.env, stop(0, " (npm exec, which started it, has exited)"));
  });
}
