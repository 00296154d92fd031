import { dirname, join } from "node:path";
import type { CliIo } from "./io.js";

/** Engine options the CLI fills from its flags and environment, the same for every operation. */
export interface EngineTuning {
  concurrency?: number;
  /** From `SVC_FINGERPRINT_KEY` (never a flag: a flag value would show in process lists). */
  fingerprintKey?: string;
  /** `--allow-external-sources`. */
  allowSourcesOutsideProject?: boolean;
}

/** The tuning options of an engine call: `--concurrency`, `--allow-external-sources` and `SVC_FINGERPRINT_KEY`. */
export function engineTuning(io: Pick<CliIo, "env">, flags: { concurrency?: number; allowExternalSources?: boolean }): EngineTuning {
  const key = io.env.SVC_FINGERPRINT_KEY?.trim() ?? "";
  return {
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...(key === "" ? {} : { fingerprintKey: key }),
    ...(flags.allowExternalSources === true ? { allowSourcesOutsideProject: true } : {}),
  };
}

/** Where the CLI keeps the bundle cache, relative to the policy's directory. */
export const CLI_CACHE_DIR = join("node_modules", ".cache", "svc-config");

/**
 * The engine's `cacheDir` for a command that bundles: `node_modules/.cache/svc-config` in the
 * directory of the policy file (the base of its relative sources), none with `--no-cache`.
 */
export function bundleCacheOption(flags: { cache?: boolean }, policyFile: string): { cacheDir?: string } {
  return flags.cache === false ? {} : { cacheDir: join(dirname(policyFile), CLI_CACHE_DIR) };
}
