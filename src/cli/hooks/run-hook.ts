/**
 * Runs one lifecycle hook: a function called with the frozen context, or shell commands run one
 * after another with `sh -c` (no stdin, the hook's variables, in the policy's directory), their
 * output streamed line by line with a prefix. A failure of any kind is a `HookFailedError`.
 */
import { spawn } from "node:child_process";
import type { HookCommand, HookContext } from "../../config/policy-types.js";
import { HookFailedError } from "../../errors/index.js";
import { startGroupReaper } from "../../rules/group-reaper.js";
import { hookLabel, hookShellEnv } from "./hook-context.js";

/** How long one shell command of a hook may run. */
export const HOOK_COMMAND_TIMEOUT_MS = 15 * 60 * 1000;

/** Options of {@link runHook}. */
export interface RunHookOptions {
  /** The policy file's directory: where shell commands run. */
  cwd: string;
  /** The CLI's environment, under the hook's variables. */
  inherited: Readonly<Record<string, string | undefined>>;
  /** Prints one line of a command's output (already prefixed). */
  print: (line: string) => void;
  /** Stops a running command (SIGTERM, then SIGKILL) when aborted. */
  signal: AbortSignal;
  /** @default {@link HOOK_COMMAND_TIMEOUT_MS} */
  timeoutMs?: number;
}

/**
 * Runs `hook` for `context` and returns what a function hook returned (`undefined` for commands).
 * Throws a `HookFailedError` naming the hook: the function's error, or the command that exited
 * non-zero, was killed, timed out or was interrupted.
 */
export async function runHook(hook: HookCommand<unknown>, context: HookContext, options: RunHookOptions): Promise<unknown> {
  const label = hookLabel(context);
  if (typeof hook === "function") {
    try {
      return await hook(Object.freeze({ ...context }));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new HookFailedError({ hook: label, reason: `the function threw: ${why}`, cause: err });
    }
  }
  const commands = typeof hook === "string" ? [hook] : hook;
  const env = hookShellEnv(context, options.inherited);
  for (const [index, command] of commands.entries()) {
    const which = commands.length === 1 ? "its command" : `command ${index + 1} of ${commands.length}`;
    const outcome = await runCommand(command, env, `[hook ${label}] `, options);
    if (outcome.kind === "exited" && outcome.code === 0) continue;
    const reason =
      outcome.kind === "exited"
        ? `${which} exited with code ${outcome.code}`
        : outcome.kind === "timeout"
          ? `${which} ran longer than ${Math.round((options.timeoutMs ?? HOOK_COMMAND_TIMEOUT_MS) / 1000)} s and was stopped`
          : outcome.kind === "interrupted"
            ? `${which} was stopped by an interrupt`
            : outcome.kind === "signal"
              ? `${which} was killed by ${outcome.signal}`
              : `${which} could not start: ${outcome.message}`;
    throw new HookFailedError({ hook: label, reason, command: index, ...(outcome.kind === "exited" ? { exitCode: outcome.code } : {}) });
  }
  return undefined;
}

type CommandOutcome =
  | { kind: "exited"; code: number }
  | { kind: "signal"; signal: string }
  | { kind: "timeout" }
  | { kind: "interrupted" }
  | { kind: "failed"; message: string };

/**
 * Runs one command in its own process group, so a timeout or an interrupt stops all it started,
 * and so does the end of svc's process (a SIGKILL included), through the group's reaper.
 */
function runCommand(command: string, env: Record<string, string>, prefix: string, options: RunHookOptions): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    if (options.signal.aborted) {
      resolve({ kind: "interrupted" });
      return;
    }
    const child = spawn("/bin/sh", ["-c", command], { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const reaper = child.pid === undefined ? undefined : startGroupReaper(child.pid);
    const flushers = [child.stdout, child.stderr].map((stream) => streamLines(stream, (line) => options.print(prefix + line)));
    let stopped: "timeout" | "interrupted" | undefined;
    const stop = (why: "timeout" | "interrupted"): void => {
      stopped ??= why;
      signalGroup(child.pid, "SIGTERM");
      setTimeout(() => signalGroup(child.pid, "SIGKILL"), 5_000).unref();
    };
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs ?? HOOK_COMMAND_TIMEOUT_MS);
    const onAbort = (): void => stop("interrupted");
    options.signal.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const finish = (outcome: CommandOutcome): void => {
      if (settled) return;
      settled = true;
      if (stopped === undefined) reaper?.dismiss();
      else reaper?.keep();
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      for (const flush of flushers) flush();
      resolve(stopped === undefined ? outcome : { kind: stopped });
    };
    child.on("error", (err) => finish({ kind: "failed", message: err.message }));
    child.on("close", (code, signal) => finish(code === null ? { kind: "signal", signal: signal ?? "a signal" } : { kind: "exited", code }));
  });
}

/** Calls `onLine` for each complete line of `stream`; the returned function flushes a last partial line. */
function streamLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): () => void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (pending + chunk).split(/\r?\n/);
    pending = lines.pop() ?? "";
    lines.forEach(onLine);
  });
  return () => {
    if (pending !== "") onLine(pending);
    pending = "";
  };
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
