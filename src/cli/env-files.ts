import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse } from "dotenv";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import type { CliIo } from "./io.js";
import type { Scrubber } from "./terminal/scrub.js";

/** Which `--env` file set each variable it added. */
export type EnvOrigins = ReadonlyMap<string, string>;

/**
 * Loads `--env` files in order into `io.env` before `svc.ts` is evaluated: never
 * overwrites a key already set by the process or an earlier file. Secret-looking values join
 * the scrubber. A missing file is `CLI_ENV_FILE_NOT_FOUND`.
 */
export function loadEnvFiles(files: readonly string[], io: CliIo, scrubber: Scrubber): EnvOrigins {
  const origins = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(resolve(io.cwd, file), "utf8");
    } catch {
      throw new CliError(CliErrorCode.ENV_FILE_NOT_FOUND, `--env file ${file} was not found (looked at ${resolve(io.cwd, file)}).`, {
        hint: "Check the path, or drop the --env flag.",
        details: { path: file },
      });
    }
    const parsed = parse(text);
    scrubber.addSecretEnv(parsed);
    for (const [name, value] of Object.entries(parsed)) {
      if (io.env[name] !== undefined) continue;
      io.env[name] = value;
      origins.set(name, file);
    }
  }
  return origins;
}
