/**
 * `svc branch hook install|uninstall`: the git `post-checkout` hook that runs `svc branch sync`
 * when a branch is checked out (see `branch-hook-script.ts`). Installed where git runs hooks
 * (`core.hooksPath` honoured). A hook already there (a file or a symlink, executable or not) is
 * kept beside it as `post-checkout.svc-chained` and runs first; uninstall puts it back.
 */
import { lstat, mkdir, readFile, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";
import { writeLocalFile } from "../files.js";
import { gitHooksDir } from "../git.js";
import { shown } from "../views/outside-text.js";
import { CHAINED_SUFFIX, HOOK_MARKER, renderHookScript } from "./branch-hook-script.js";

/** Flags of `svc branch hook install` passed on to `svc branch sync`. */
export interface BranchHookFlags {
  config?: string;
  env?: string[];
  nameTemplate?: string;
  writeEnv?: string;
  envPrefix?: string;
  updateExisting?: boolean;
}

/** svc's own bin script, which the hook runs with this Node.js. */
const SVC_BIN = fileURLToPath(new URL("../../../bin/svc.js", import.meta.url));

/** What is at the hook's path: nothing, svc's hook, or another hook (a file, a symlink, anything). */
export type InstalledHook = "none" | "svc" | "other";

/** What `post-checkout` in `dir` is. */
export async function installedHook(dir: string): Promise<InstalledHook> {
  const path = join(dir, "post-checkout");
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return "none";
  if (!info.isFile() || info.size > 64 * 1024) return "other";
  return (await readFile(path, "utf8")).split("\n").includes(HOOK_MARKER) ? "svc" : "other";
}

/** `svc branch hook install` / `uninstall`. */
export async function runBranchHook(ctx: CommandContext, action: string, flags: BranchHookFlags): Promise<number> {
  const dir = await gitHooksDir(ctx.io.cwd);
  if (action === "install") return install(ctx, dir, flags);
  if (action === "uninstall") return uninstall(ctx, dir);
  throw new CliError(CliErrorCode.USAGE, `svc branch hook takes install or uninstall, not ${JSON.stringify(shown(action))}.`, { hint: "usage: svc branch hook install|uninstall" });
}

async function install(ctx: CommandContext, dir: string, flags: BranchHookFlags): Promise<number> {
  const path = join(dir, "post-checkout");
  const chained = `${path}${CHAINED_SUFFIX}`;
  const current = await installedHook(dir);
  if (current === "other") {
    if ((await lstat(chained).catch(() => undefined)) !== undefined) {
      throw new CliError(CliErrorCode.FILE_EXISTS, `${shown(chained)} already exists, and the post-checkout hook beside it is not svc's: installing would lose one of them.`, {
        hint: "Merge or remove one of the two hooks, then run svc branch hook install again.",
      });
    }
    await rename(path, chained);
    ctx.info([`Kept the existing post-checkout hook as ${chained}; it runs first.`]);
  }
  await mkdir(dir, { recursive: true });
  const absolute = (file: string): string => resolve(ctx.io.cwd, file);
  const syncArgs = [
    ...(flags.config === undefined ? [] : ["--config", absolute(flags.config)]),
    ...(flags.env ?? []).flatMap((file) => ["--env", absolute(file)]),
    ...(flags.nameTemplate === undefined ? [] : ["--name-template", flags.nameTemplate]),
    ...(flags.writeEnv === undefined ? [] : ["--write-env", absolute(flags.writeEnv)]),
    ...(flags.envPrefix === undefined ? [] : ["--env-prefix", flags.envPrefix]),
    ...(flags.updateExisting === true ? ["--update-existing"] : []),
  ];
  writeLocalFile({ flag: "svc branch hook install", display: path, path }, renderHookScript({ node: process.execPath, bin: SVC_BIN, syncArgs, envFiles: (flags.env ?? []).length > 0 }), { mode: 0o755 });
  ctx.out([`${current === "svc" ? "Updated" : "Installed"} the post-checkout hook in ${dir}: checking out a branch runs svc branch sync${syncArgs.length === 0 ? "" : ` ${syncArgs.join(" ")}`} (not in CI${(flags.env ?? []).length > 0 ? "" : ", not without SVC_API_KEY"}).`]);
  return 0;
}

async function uninstall(ctx: CommandContext, dir: string): Promise<number> {
  const path = join(dir, "post-checkout");
  const current = await installedHook(dir);
  if (current !== "svc") {
    ctx.out([current === "none" ? `No post-checkout hook in ${dir}; nothing to remove.` : `The post-checkout hook in ${dir} is not svc's; it was left as it is.`]);
    return 0;
  }
  await rm(path);
  const chained = `${path}${CHAINED_SUFFIX}`;
  if ((await lstat(chained).catch(() => undefined)) !== undefined) {
    await rename(chained, path);
    ctx.out([`Removed svc's post-checkout hook from ${dir} and restored the hook it had kept.`]);
  } else {
    ctx.out([`Removed svc's post-checkout hook from ${dir}.`]);
  }
  return 0;
}
