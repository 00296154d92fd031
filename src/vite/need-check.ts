/**
 * What the Vite plugin decides before provisioning: whether it is active, the
 * leak guard, and whether the key is missing everywhere Vite would load it from.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "dotenv";
import { ErrorCode, PlatformError } from "../errors/index.js";

/** The parts of Vite's `config` hook arguments the plugin reads. */
export interface ViteConfigFacts {
  readonly command: "build" | "serve";
  readonly mode: string;
  readonly isPreview?: boolean;
}

/** Active only for the dev server: not for builds, preview, test runners or `SVC_INSTANT_POSTGRES=off`. */
export function isActive(facts: ViteConfigFacts, env: Record<string, string | undefined>): boolean {
  if (facts.command !== "serve" || facts.isPreview === true) return false;
  if ((env["VITEST"] ?? "") !== "" || facts.mode === "test") return false;
  return env["SVC_INSTANT_POSTGRES"] !== "off";
}

/** Vite's `envPrefix` as a list (default `VITE_`). */
export function envPrefixes(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return ["VITE_"];
  return typeof value === "string" ? [value] : [...value];
}

/**
 * The leak guard: throws when a Vite `envPrefix` entry is a prefix of `<KEY>` or `<KEY>_DIRECT`,
 * since the connection string would then reach client code.
 */
export function assertNoLeak(key: string, prefixes: readonly string[]): void {
  for (const prefix of prefixes) {
    for (const name of [key, `${key}_DIRECT`]) {
      if (name.startsWith(prefix)) {
        throw new PlatformError(
          ErrorCode.INSTANT_INVALID_OPTIONS,
          `svc-config/vite: envPrefix "${prefix}" would expose ${name} (a connection string) to client code; use a dotEnvKey without that prefix (e.g. DATABASE_URL) or change envPrefix`,
          { details: { key: name, envPrefix: prefix } },
        );
      }
    }
  }
}

async function namesIn(file: string): Promise<Set<string>> {
  try {
    return new Set(Object.keys(parse((await readFile(file, "utf8")).replace(/^\uFEFF/, ""))));
  } catch {
    return new Set();
  }
}

/** The env files Vite loads for a mode, in `envDir`. */
export function viteEnvFiles(envDir: string, mode: string): string[] {
  return [".env", ".env.local", `.env.${mode}`, `.env.${mode}.local`].map((name) => path.join(envDir, name));
}

/**
 * Whether `<KEY>` (exact name) is set in `process.env`, the env files Vite loads for the mode, or
 * the target file.
 */
export async function keyIsPresent(key: string, env: Record<string, string | undefined>, files: readonly string[]): Promise<boolean> {
  if (env[key] !== undefined) return true;
  for (const file of new Set(files)) if ((await namesIn(file)).has(key)) return true;
  return false;
}
