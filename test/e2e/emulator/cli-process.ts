/**
 * `svc emulator` as a user runs it: the built bin in its own process (call `ensureBuilt()` in a
 * `beforeAll` first). The built bin starts in a fraction of the time a source run through tsx
 * takes, which matters for the tests that start many emulators (kill -9 rounds, restarts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { BIN } from "../cli/harness.js";

export interface EmulatorProcess {
  child: ChildProcess;
  /** The five `SVC_*` lines once listening; rejects if the process exits first. */
  env: Promise<Record<string, string>>;
  exit: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
}

/** Starts `svc emulator <args>`; the process is added to `children` so an `afterEach` can kill it. */
export function spawnEmulatorCli(args: readonly string[], children: ChildProcess[]): EmulatorProcess {
  const child = spawn(process.execPath, [BIN, "emulator", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const env = new Promise<Record<string, string>>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n").filter((l) => l.startsWith("SVC_"));
      if (lines.length >= 5) resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])));
    });
    void exit.then((code) => reject(new Error(`svc emulator exited ${String(code)} before it was ready: ${err}`)));
  });
  // A run expected to fail is never awaited for readiness.
  env.catch(() => undefined);
  return { child, env, exit, stdout: () => out, stderr: () => err };
}
