/**
 * Staging external packages for the platform's runtime: `npm install <name>@<version> …
 * --os=linux --cpu=arm64 --libc=glibc --ignore-scripts` in a temporary directory, so npm picks
 * the linux/arm64/glibc platform packages whatever machine deploys. Install scripts never run.
 * Failures are {@link StagingError}s whose `reason` says what a user must do.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ExternalPackagesFailureReason } from "../errors/index.js";
import { startGroupReaper } from "../rules/group-reaper.js";
import { escapeUnsafeText } from "../rules/visible-text.js";
import type { InstalledPackage } from "./external-packages-installed.js";

/** The runtime packages are staged for. */
export const STAGING_PLATFORM = Object.freeze({ os: "linux", cpu: "arm64", libc: "glibc" });

/** How long one `npm install` may run. */
export const STAGING_TIMEOUT_MS = 5 * 60 * 1000;


/** A staging failure with what the user can do about it in its message. */
export class StagingError extends Error {
  constructor(
    readonly reason: ExternalPackagesFailureReason,
    message: string,
  ) {
    super(message);
    this.name = "StagingError";
  }
}

/** The arguments of the staging install (after `npm`). */
export function npmInstallArgs(packages: readonly InstalledPackage[], prefix: string): string[] {
  return [
    "install",
    ...packages.map((p) => `${p.name}@${p.version}`),
    `--os=${STAGING_PLATFORM.os}`,
    `--cpu=${STAGING_PLATFORM.cpu}`,
    `--libc=${STAGING_PLATFORM.libc}`,
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--no-package-lock",
    // Explicit, so npm settings inherited from an `npm exec` / `npx` parent cannot redirect the install.
    `--prefix=${prefix}`,
    "--global=false",
    "--save=false",
  ];
}

/** At most this much of npm's output is kept for a message. */
const OUTPUT_TAIL_BYTES = 16 * 1024;

/**
 * Installs `packages` (each at its installed version) into `dir` for linux/arm64/glibc. Rejects
 * with a {@link StagingError}: npm missing, a timeout (the process group is killed), no build
 * for the runtime (`EBADPLATFORM`), or another npm failure quoting its last lines.
 */
export async function installForRuntime(packages: readonly InstalledPackage[], dir: string, timeoutMs: number = STAGING_TIMEOUT_MS): Promise<void> {
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ name: "svc-config-staging", private: true })}\n`);
  const what = packages.map((p) => `${p.name}@${p.version}`).join(", ");
  const { code, output, error, timedOut } = await runNpm(npmInstallArgs(packages, dir), dir, timeoutMs);
  if (error?.code === "ENOENT") {
    throw new StagingError("npm-missing", `npm is not installed or not on the PATH, and staging ${what} for linux/arm64 needs it: install Node.js with npm, or set includeFiles: false for packages the runtime provides`);
  }
  if (timedOut) throw new StagingError("npm-timeout", `npm install of ${what} for linux/arm64 did not finish within ${Math.round(timeoutMs / 1000)} s (stopped): check the network and the registry, then retry`);
  if (error !== undefined) throw new StagingError("npm-failed", `npm could not be started to stage ${what}: ${error.message}`);
  if (code === 0) return;
  const tail = lastLines(output, 8);
  if (/\bEBADPLATFORM\b/.test(output)) {
    throw new StagingError("no-runtime-build", `${what} has no build for linux/arm64/glibc (npm: EBADPLATFORM): use a version or a package that publishes one, or set includeFiles: false if the runtime provides it\n${tail}`);
  }
  if (/\bE404\b|\bETARGET\b/.test(output)) {
    throw new StagingError("npm-failed", `npm cannot find ${what} in the registry: publish or install a version the registry serves\n${tail}`);
  }
  throw new StagingError("npm-failed", `npm install of ${what} for linux/arm64 failed (exit ${code ?? "signal"}):\n${tail}`);
}

interface NpmRun {
  code: number | null;
  output: string;
  error?: NodeJS.ErrnoException;
  timedOut: boolean;
}

function runNpm(args: readonly string[], cwd: string, timeoutMs: number): Promise<NpmRun> {
  return new Promise((resolve) => {
    const child = spawn("npm", [...args], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    // npm and what it starts stop with svc even when svc is killed with SIGKILL.
    const reaper = child.pid === undefined || process.platform === "win32" ? undefined : startGroupReaper(child.pid);
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, "SIGTERM");
      setTimeout(() => killGroup(child.pid, "SIGKILL"), 5_000).unref();
    }, timeoutMs);
    let settled = false;
    const done = (run: NpmRun): void => {
      if (settled) return;
      settled = true;
      if (timedOut) reaper?.keep();
      else reaper?.dismiss();
      clearTimeout(timer);
      resolve(run);
    };
    child.on("error", (error: NodeJS.ErrnoException) => done({ code: null, output, error, timedOut }));
    child.on("close", (code) => done({ code, output, timedOut }));
  });
}

/** Signals npm and the processes it started (its process group). */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}

/** The last `count` non-empty lines of npm's output, indented and with unsafe characters escaped. */
function lastLines(output: string, count: number): string {
  const lines = output.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l !== "");
  return lines.slice(-count).map((l) => `      ${escapeUnsafeText(l)}`).join("\n");
}
