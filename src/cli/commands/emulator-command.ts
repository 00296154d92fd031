import type { CommandContext } from "../context.js";

/**
 * `svc emulator …`: loads the emulator lazily, so no other command loads
 * Hono, and hands it the remaining arguments; its exit codes are its own.
 */
export async function runEmulator(_ctx: CommandContext, args: string[]): Promise<number> {
  // A literal lazy import: type-checked, and the import-graph test sees it as the one allowed edge.
  const { runEmulatorCli } = await import("../../emulator/cli.js");
  return runEmulatorCli(args);
}
