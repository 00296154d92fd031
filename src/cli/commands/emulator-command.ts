import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";

/** What `src/emulator/cli.ts` provides: runs `svc emulator ARGS` and resolves with its exit code. */
type EmulatorCliModule = { runEmulatorCli?: (argv: string[]) => Promise<number> | number };

/**
 * `svc emulator …` (emulator.md §1.1): loads the emulator lazily, so no other command loads
 * Hono, and hands it the remaining arguments; its exit codes are its own.
 */
export async function runEmulator(_ctx: CommandContext, args: string[]): Promise<number> {
  // A computed specifier keeps the emulator out of the CLI's static import graph.
  const specifier = ["..", "..", "emulator", "cli.js"].join("/");
  const mod = (await import(specifier)) as EmulatorCliModule;
  if (typeof mod.runEmulatorCli !== "function") {
    throw new CliError(CliErrorCode.INTERNAL, "This build of svc-config has no emulator command.", { hint: "Rebuild with npm run build, or report it." });
  }
  return mod.runEmulatorCli(args);
}
