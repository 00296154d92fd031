import { describe, expect, it } from "vitest";
import type { HookContext } from "../../../src/config/policy-types.js";
import { isPlatformError } from "../../../src/errors/platform-error.js";
import { hookShellEnv } from "../../../src/cli/hooks/hook-context.js";
import { runHook } from "../../../src/cli/hooks/run-hook.js";
import { createTempTree } from "../../helpers/temp-dir.js";

const context: HookContext = {
  event: "create",
  phase: "after",
  git: { branch: "feature/x", commit: "0123abc" },
  branch: { projectId: "p-1", id: "br-1", name: "preview/feature-x", created: true, isDefault: false, isProtected: false, parentId: "br-main" },
  env: { DATABASE_URL: "postgres://u:secret-pass@h/db", SVC_BRANCH: "preview/feature-x" },
};

async function run(hook: Parameters<typeof runHook>[0], ctx: HookContext = context, inherited: Record<string, string> = { PATH: process.env.PATH ?? "" }) {
  const lines: string[] = [];
  const dir = createTempTree();
  try {
    const returned = await runHook(hook, ctx, { cwd: dir.root, inherited, print: (l) => lines.push(l), signal: new AbortController().signal, timeoutMs: 30_000 });
    return { returned, lines, error: undefined as unknown };
  } catch (error) {
    return { returned: undefined, lines, error };
  } finally {
    dir.remove();
  }
}

describe("a shell hook's environment", () => {
  it("is the CLI's own, then the context, then the branch's variables, and CI=1", () => {
    const env = hookShellEnv(context, { PATH: "/bin", SVC_BRANCH_ID: "br-other", CI: "", HOME: "/home/u" });
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      SVC_HOOK_EVENT: "create",
      SVC_HOOK_PHASE: "after",
      SVC_GIT_BRANCH: "feature/x",
      SVC_GIT_COMMIT: "0123abc",
      SVC_PROJECT_ID: "p-1",
      SVC_BRANCH_ID: "br-1",
      SVC_BRANCH: "preview/feature-x",
      SVC_BRANCH_CREATED: "true",
      DATABASE_URL: "postgres://u:secret-pass@h/db",
      CI: "1",
    });
  });

  it("has no branch id before the branch exists, and empty git values outside git", () => {
    const env = hookShellEnv({ event: "create", phase: "before", git: null, branch: { projectId: "p", id: null, name: "n", created: false, isDefault: false, isProtected: false } }, { SVC_BRANCH_ID: "br-inherited" });
    expect(env).not.toHaveProperty("SVC_BRANCH_ID");
    expect(env.SVC_GIT_BRANCH).toBe("");
    expect(env.SVC_GIT_COMMIT).toBe("");
    expect(Object.getPrototypeOf(env)).toBeNull();
  });
});

describe("running a hook", () => {
  it("calls a function with the frozen context and returns what it returned", async () => {
    let seen: HookContext | undefined;
    const { returned } = await run((ctx) => {
      seen = ctx;
      return { name: "x" };
    });
    expect(returned).toEqual({ name: "x" });
    expect(seen).toEqual(context);
    expect(Object.isFrozen(seen)).toBe(true);
  });

  it.each<[string, Parameters<typeof runHook>[0], string]>([
    ["a function that throws", () => { throw new Error("migration 002 failed"); }, "hook create.after failed: the function threw: migration 002 failed"],
    ["a function that rejects", async () => Promise.reject(new Error("nope")), "hook create.after failed: the function threw: nope"],
    ["a command exiting non-zero", "exit 3", "hook create.after failed: its command exited with code 3"],
    ["the second of three commands", ["true", "exit 2", "echo never"], "hook create.after failed: command 2 of 3 exited with code 2"],
    ["a command killed by a signal", "kill -9 $$", "hook create.after failed: its command was killed by SIGKILL"],
  ])("fails with PLATFORM_HOOK_FAILED for %s", async (_label, hook, message) => {
    const { error, lines } = await run(hook);
    expect(isPlatformError(error, "PLATFORM_HOOK_FAILED")).toBe(true);
    expect((error as Error).message).toBe(message);
    expect(lines).not.toContain("[hook create.after] never");
  });

  it("streams each output line of stdout and stderr with the hook's prefix, the last partial line too", async () => {
    const { lines, error } = await run(["echo one; echo two >&2", "printf 'no newline'"]);
    expect(error).toBeUndefined();
    expect(lines.sort()).toEqual(["[hook create.after] no newline", "[hook create.after] one", "[hook create.after] two"]);
  });

  it("gives commands no stdin, the context as variables and the policy's directory as working directory", async () => {
    const { lines } = await run('cat; echo "stdin closed $CI $SVC_HOOK_EVENT.$SVC_HOOK_PHASE $SVC_BRANCH $SVC_BRANCH_CREATED"; test -z "$(ls -A .)" && echo "empty cwd"');
    expect(lines).toEqual(["[hook create.after] stdin closed 1 create.after preview/feature-x true", "[hook create.after] empty cwd"]);
  });

  it("quotes nothing into the shell: a branch name with quotes and $() stays data", async () => {
    const hostile = { ...context, env: {}, branch: { ...context.branch, name: "x'; echo pwned; '$(id)" } };
    const { lines } = await run('echo "$SVC_BRANCH"', hostile);
    expect(lines).toEqual(["[hook create.after] x'; echo pwned; '$(id)"]);
  });

  it("stops a command at the time limit, and an interrupt stops it too", async () => {
    const dir = createTempTree();
    try {
      const timeout = await runHook("sleep 30", context, { cwd: dir.root, inherited: { PATH: process.env.PATH ?? "" }, print: () => undefined, signal: new AbortController().signal, timeoutMs: 200 }).catch((e: unknown) => e);
      expect((timeout as Error).message).toBe("hook create.after failed: its command ran longer than 0 s and was stopped");
      const abort = new AbortController();
      const interrupted = runHook("sleep 30", context, { cwd: dir.root, inherited: { PATH: process.env.PATH ?? "" }, print: () => undefined, signal: abort.signal }).catch((e: unknown) => e);
      setTimeout(() => abort.abort(), 100);
      expect(((await interrupted) as Error).message).toBe("hook create.after failed: its command was stopped by an interrupt");
    } finally {
      dir.remove();
    }
  });
});
