/**
 * The policy's lifecycle hooks as the commands run them. Only the CLI runs hooks: `svc branch
 * sync` (checkout), a branch's creation (create) and `svc config apply` / `svc deploy` (deploy),
 * never plan, status, validate or dev. A failing `before` hook throws `PLATFORM_HOOK_FAILED`
 * before anything changed (exit 1); a failing `after` hook is a warning and makes the command
 * exit 7, its changes kept. Secrets the `after` context carries are added to the scrubber first.
 */
import { dirname } from "node:path";
import type { HookCommand, HookContext, LifecycleHooks } from "../../config/policy-types.js";
import { isPlatformError } from "../../errors/platform-error.js";
import type { CommandContext } from "../context.js";
import { hookLabel } from "./hook-context.js";
import { runHook } from "./run-hook.js";

/** The exit code of a command whose own work succeeded and whose `after` hook failed. */
export const AFTER_HOOK_FAILED_EXIT = 7;

/** A context without its phase: the command says which phase it runs. */
export type HookFacts = Omit<HookContext, "phase">;

/** The variables of the branch a function sees, and the secret values among them. */
export interface BranchEnvReading {
  env: Record<string, string>;
  secrets: readonly string[];
}

/** Runs the hooks of one loaded policy for one command. */
export class HookRunner {
  private readonly cwd: string;

  /**
   * @param hooks the policy's `hooks` (validated)
   * @param policyFile the policy's path: shell hooks run in its directory
   */
  constructor(
    private readonly ctx: CommandContext,
    private readonly hooks: LifecycleHooks | undefined,
    policyFile: string,
  ) {
    this.cwd = dirname(policyFile);
  }

  /** Whether the policy declares a hook for `event` and `phase`. */
  has(event: HookContext["event"], phase: HookContext["phase"]): boolean {
    return this.hooks?.[event]?.[phase] !== undefined;
  }

  /**
   * Runs the `before` hook of `facts.event`, if any, and returns what a function hook returned.
   * Throws `PLATFORM_HOOK_FAILED` when it fails: the caller has changed nothing yet.
   */
  async before(facts: HookFacts): Promise<unknown> {
    const hook = this.hooks?.[facts.event]?.before;
    if (hook === undefined) return undefined;
    return this.run(hook, { ...facts, phase: "before" });
  }

  /**
   * Runs the `after` hook of `facts.event`, if any, with the branch's variables from `readEnv`
   * (read only when a hook exists). Returns the command's exit code: `code` when the hook
   * succeeded or there is none, else {@link AFTER_HOOK_FAILED_EXIT} after a warning.
   */
  async after(facts: Omit<HookFacts, "env">, readEnv: () => Promise<BranchEnvReading>, code = 0): Promise<number> {
    const hook = this.hooks?.[facts.event]?.after;
    if (hook === undefined) return code;
    const label = hookLabel({ ...facts, phase: "after" });
    try {
      const { env, secrets } = await readEnv();
      this.ctx.scrubber.add(...secrets);
      await this.run(hook, { ...facts, phase: "after", env });
      return code;
    } catch (err) {
      const why = isPlatformError(err) ? err.message : `reading the branch's variables failed: ${err instanceof Error ? err.message : String(err)}`;
      this.ctx.err([`warning: ${why}`, `  The ${facts.event} itself succeeded and is kept; the command exits ${AFTER_HOOK_FAILED_EXIT} because hook ${label} failed.`]);
      return Math.max(code, AFTER_HOOK_FAILED_EXIT);
    }
  }

  private async run(hook: HookCommand<unknown>, context: HookContext): Promise<unknown> {
    const label = hookLabel(context);
    this.ctx.info([`Running hook ${label}`]);
    const started = this.ctx.io.now();
    const returned = await runHook(hook, context, {
      cwd: this.cwd,
      inherited: this.ctx.io.env,
      print: (line) => this.ctx.err([line]),
      signal: this.ctx.signal,
    });
    this.ctx.info([`Hook ${label} done in ${((this.ctx.io.now() - started) / 1000).toFixed(1)}s`]);
    return returned;
  }
}
