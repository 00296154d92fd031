/**
 * A child svc starts in a process group of its own (a hook's shell command, the npm install that
 * stages external packages) is signalled by svc on a timeout or an interrupt. When svc itself is
 * killed with SIGKILL it can signal nothing, so each group gets a reaper: a small `sh` in a group
 * of its own, reading a pipe only svc holds. The pipe ends when svc's process ends, however it
 * ends; the reaper then stops the group (SIGTERM, SIGKILL after {@link REAP_GRACE_S} s). When the
 * child finishes by itself svc kills the reaper first, so what it leaves in the background is not
 * touched; when svc stopped it, the reaper stays for what ignored the stop. Leaf module: node
 * built-ins only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Socket } from "node:net";

/** Seconds between the reaper's SIGTERM and its SIGKILL to an orphaned group. */
export const REAP_GRACE_S = 5;

// $1: the process group. `read` returns when the pipe from svc ends; `kill -0` checks the group is
// still there (the command may have finished without svc noticing, in the moment svc died).
const REAPER_SCRIPT = `while read -r _; do :; done; kill -0 -"$1" 2>/dev/null || exit 0; kill -TERM -"$1" 2>/dev/null; sleep ${REAP_GRACE_S}; kill -KILL -"$1" 2>/dev/null; exit 0`;

/** The reaper of one group, told how the command ended. */
export interface GroupReaper {
  /** The command finished by itself: stop the reaper, leaving the group alone. */
  dismiss(): void;
  /**
   * svc stopped the command (timeout, interrupt): keep the reaper, which then stops whatever of
   * the group is still there once svc's process ends, without holding svc's process up.
   */
  keep(): void;
}

/**
 * Starts the reaper of process group `pgid`. Never throws: a reaper that cannot start leaves the
 * group as it was before reapers existed (still stopped by svc on a timeout or an interrupt).
 */
export function startGroupReaper(pgid: number): GroupReaper {
  let reaper: ChildProcess;
  try {
    reaper = spawn("/bin/sh", ["-c", REAPER_SCRIPT, "svc-reaper", String(pgid)], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  } catch {
    return { dismiss: () => undefined, keep: () => undefined };
  }
  reaper.on("error", () => undefined);
  reaper.stdin?.on("error", () => undefined);
  return {
    dismiss: () => {
      if (reaper.exitCode === null && reaper.signalCode === null) reaper.kill("SIGKILL");
    },
    keep: () => {
      reaper.unref();
      if (reaper.stdin instanceof Socket) reaper.stdin.unref();
    },
  };
}
