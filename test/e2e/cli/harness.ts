/**
 * Runs the real `svc` bin (`node bin/svc.js`, which loads the bundle in `dist/bin/`) as a subprocess against an
 * in-process emulator. `ensureBuilt` runs `npm run build` when `dist/` is missing or older
 * than `src/` (once, under a lock shared by parallel test files); in CI `npm ci` has built it.
 */
import { execFile, spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";

/** The repository root. */
export const ROOT = join(import.meta.dirname, "..", "..", "..");
/** The bin under test. */
export const BIN = join(ROOT, "bin", "svc.js");
/** The emulator's bootstrap key: must never appear in any output. */
export const API_KEY = "svcemu_cli_e2e_bootstrap_key_do_not_print_0001";
/** The long secret planted in fixtures/cli/project/.env.ci. */
export const PLANTED_SECRET = "planted-secret-token-4242";

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  const main = join(ROOT, "dist", "bin", "svc.js");
  return existsSync(main) && statSync(main).mtimeMs >= newestMtime(join(ROOT, "src"));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Builds `dist/` when it is stale; parallel callers wait for one build. */
export async function ensureBuilt(): Promise<void> {
  if (isFresh()) return;
  const lock = join(tmpdir(), "svc-config-cli-e2e-build.lock");
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 300_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    if (!isFresh()) await promisify(execFile)("npm", ["run", "build", "--silent"], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A started emulator with fast timings and a fixed bootstrap key. */
export async function startTestEmulator(extra: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    apiKey: API_KEY,
    timings: { opSchedulingMs: 0, opRunMs: 20, deployPendingMs: 10, deployBuildMs: 30, domainActivationMs: 10, claimTransferMs: 10 },
    ...extra,
  });
}

/** The `SVC_*` variables pointing at an emulator. */
export function emulatorEnv(emu: RunningEmulator, branchId: string | undefined = emu.defaultBranchId): Record<string, string> {
  return {
    SVC_API_HOST: emu.apiHost,
    SVC_API_KEY: emu.apiKey,
    SVC_PROJECT_ID: emu.projectId,
    ...(branchId === undefined ? {} : { SVC_BRANCH_ID: branchId }),
  };
}

/** A copy of fixtures/cli/project in a temp dir (with `.git`, so the policy search stops there). */
export function projectDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-cli-e2e-"));
  cpSync(join(ROOT, "fixtures", "cli", "project"), dir, { recursive: true });
  mkdirSync(join(dir, ".git"));
  return dir;
}

/** An empty temp dir with `.git`. */
export function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-cli-e2e-"));
  mkdirSync(join(dir, ".git"));
  return dir;
}

/** A PATH whose `npx svc …` runs this checkout's bin, as `npx` runs an installed package's. */
export function npxShim(): string {
  const dir = join(emptyDir(), "bin");
  mkdirSync(dir);
  writeFileSync(join(dir, "npx"), `#!/usr/bin/env bash\n[ "$1" = svc ] || exit 127\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, "npx"), 0o755);
  return `${dir}:${process.env.PATH ?? ""}`;
}

/** What a run printed and how it ended. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: PATH, HOME, LANG and the run's TMPDIR only, plus what the test adds; no CI, no colours forced. */
export function childEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), LANG: "C.UTF-8" };
  // The test run's temporary directory (test/temp-root.ts): what a child leaves goes with it, never into the system's.
  if (process.env.TMPDIR !== undefined) env.TMPDIR = process.env.TMPDIR;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Options of {@link runSvc}. */
export interface RunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  /** Called with each stderr chunk, e.g. to send a signal at the right moment. */
  onStderr?: (chunk: string, child: ReturnType<typeof spawn>) => void;
}

/** Runs `node bin/svc.js ARGS` asynchronously (the emulator lives in this process). */
export function runSvc(args: readonly string[], options: RunOptions): Promise<RunResult> {
  return runProcess(process.execPath, [BIN, ...args], options);
}

/** Runs any command asynchronously and collects its output. */
export function runProcess(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: childEnv(options.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      options.onStderr?.(d, child);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** One answer typed into the pseudo-terminal: `answer` once `waitFor` appears (after the previous answer's prompt). */
export interface PtyAnswer {
  waitFor: string;
  answer: string;
  /** Runs before the answer is typed, e.g. to change the live state between prompt and answer. */
  before?: () => Promise<void>;
}

/**
 * Runs the bin under a pseudo-terminal of 80×24 (`script -qfec`), without `CI`.
 * `answer` is typed once `waitFor` appears in the output; `answers` types several in turn.
 * Returns the terminal transcript.
 */
export function runSvcInPty(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; answer?: string; waitFor?: string; answers?: PtyAnswer[] },
): Promise<RunResult> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const answers: PtyAnswer[] = [...(options.answer !== undefined && options.waitFor !== undefined ? [{ waitFor: options.waitFor, answer: options.answer }] : []), ...(options.answers ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", `stty cols 80 rows 24; exec ${quoted}`, "/dev/null"], {
      cwd: options.cwd,
      env: childEnv({ ...options.env, TERM: "xterm-256color" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let searchFrom = 0;
    let busy = false;
    const next = (): void => {
      const step = answers[0];
      if (busy || step === undefined) return;
      const at = out.indexOf(step.waitFor, searchFrom);
      if (at < 0) return;
      answers.shift();
      searchFrom = at + step.waitFor.length;
      busy = true;
      void (step.before ?? (async () => undefined))().then(
        () => {
          busy = false;
          child.stdin.write(step.answer);
          next();
        },
        reject,
      );
    };
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      next();
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout: out, stderr: "" }));
  });
}

/** Options of {@link useEmulatorProject}. */
export interface EmulatorProjectOptions {
  /** `"test"`: a fresh emulator and project copy for every test; `"file"`: one for the whole file. @default "file" */
  per?: "file" | "test";
  /** Options of the emulator (a seed, real databases, timings). */
  emulator?: Parameters<typeof startEmulator>[0];
  /** `false` leaves `SVC_BRANCH_ID` out of `svc`'s environment. @default true */
  branch?: boolean;
  /** Edits the fresh project copy before the tests use it. */
  prepare?: (cwd: string) => void;
}

/** What {@link useEmulatorProject} gives a test file. */
export interface EmulatorProject {
  /** The running emulator. */
  emu: () => RunningEmulator;
  /** The project copy's directory. */
  cwd: () => string;
  /**
   * Runs the bin in the project with `--env .env.ci` and the emulator's `SVC_*` variables;
   * `run.env` adds or (with `undefined`) removes variables, `run.input` is written to stdin.
   */
  svc: (args: readonly string[], run?: { env?: Record<string, string | undefined>; input?: string }) => Promise<RunResult>;
}

/**
 * Registers the hooks of a CLI end-to-end file: the bin built once, then an emulator and a copy of
 * fixtures/cli/project for the whole file or for each test (`per`). Read them through the getters.
 */
export function useEmulatorProject(options: EmulatorProjectOptions = {}): EmulatorProject {
  let emu: RunningEmulator | undefined;
  let cwd = "";
  const start = async (): Promise<void> => {
    emu = await startTestEmulator(options.emulator);
    cwd = projectDir();
    options.prepare?.(cwd);
  };
  const stop = async (): Promise<void> => {
    const running = emu;
    emu = undefined;
    await running?.close();
  };
  beforeAll(async () => {
    await ensureBuilt();
    if (options.per !== "test") await start();
  }, 180_000);
  afterAll(stop);
  if (options.per === "test") {
    beforeEach(start);
    afterEach(stop);
  }
  const current = (): RunningEmulator => {
    if (emu === undefined) throw new Error("the emulator starts in a beforeAll or beforeEach hook");
    return emu;
  };
  return {
    emu: current,
    cwd: () => cwd,
    svc: (args, run = {}) =>
      runSvc([...args, "--env", ".env.ci"], {
        cwd,
        env: { ...emulatorEnv(current(), options.branch === false ? undefined : current().defaultBranchId), ...run.env },
        ...(run.input === undefined ? {} : { input: run.input }),
      }),
  };
}
