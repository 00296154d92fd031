import { CliError, CliErrorCode } from "../errors/cli-errors.js";

/** The engine the CLI calls: `svc-config/v1` itself, so the CLI sees the real signatures. */
export type EnginePort = typeof import("../v1.js");

/**
 * Loads the engine lazily from the public surface (`src/v1.ts`), so `svc --help` and
 * `svc config init` never load it. A function missing from the build is `CLI_INTERNAL`.
 */
export async function loadEngine(): Promise<EnginePort> {
  const surface: EnginePort = await import("../v1.js");
  return new Proxy(surface, {
    get(target, name: string | symbol) {
      // A module namespace's symbols (`Symbol.toStringTag`) are fixed: a proxy must return them as they are.
      if (typeof name === "symbol") return Reflect.get(target, name);
      // Not thenable: `await` on the engine must not look like a missing function.
      if (name === "then") return undefined;
      const value = (target as unknown as Record<string, unknown>)[name];
      if (typeof value !== "function") {
        throw new CliError(CliErrorCode.INTERNAL, `This build of svc-config has no ${name}; the engine is incomplete.`, {
          hint: "Rebuild with npm run build, or report it.",
        });
      }
      return value;
    },
  });
}
