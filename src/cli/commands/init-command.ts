import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { POLICY_FILE_NAMES } from "../../config/find-policy-file.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";
import { writeFileAtomic } from "../files.js";
import { ENV_TYPES, HELLO_FUNCTION, POLICY_EMPTY, POLICY_WITH_EXAMPLE } from "./init-templates.js";

/** Flags of `svc config init`. */
export interface InitFlags {
  force?: boolean;
  /** commander's `--no-example` sets this to false. */
  example?: boolean;
}

/** The files init writes, relative to the working directory. */
export function initFiles(example: boolean): Record<string, string> {
  return example
    ? { "svc.ts": POLICY_WITH_EXAMPLE, "functions/hello/index.ts": HELLO_FUNCTION, "svc-env.d.ts": ENV_TYPES }
    : { "svc.ts": POLICY_EMPTY, "svc-env.d.ts": ENV_TYPES };
}

/**
 * `svc config init` (cli.md §4.1): no API calls; scaffolds `svc.ts`, an example function and
 * env types. Refuses (`CLI_FILE_EXISTS`) when a policy or target file exists, unless `--force`,
 * which overwrites only these files. Never edits package.json or tsconfig.json.
 */
export function runInit(ctx: CommandContext, flags: InitFlags): number {
  const files = initFiles(flags.example !== false);
  const existing = [...new Set([...POLICY_FILE_NAMES, ...Object.keys(files)])].filter((name) => existsSync(join(ctx.io.cwd, name)));
  if (existing.length > 0 && flags.force !== true) {
    throw new CliError(CliErrorCode.FILE_EXISTS, `Not overwriting ${existing.join(", ")} in ${ctx.io.cwd}; nothing was written.`, {
      hint: "Pass --force to overwrite the scaffold files, or run init in another directory.",
      details: { existing },
    });
  }
  for (const [name, content] of Object.entries(files)) {
    const path = join(ctx.io.cwd, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, content);
    ctx.out(`wrote ${name}\n`);
  }
  ctx.info(
    [
      "",
      "Next steps:",
      "  1. npm install --save-dev svc-config @types/node   (svc.ts reads process.env; @types/node types it)",
      "  2. npx svc config validate                        (offline check, no key needed)",
      "  3. export SVC_API_KEY=… SVC_PROJECT_ID=…, then npx svc config plan",
      "Try it locally first: npx svc emulator --port 0 > .env.emulator & then npx svc config plan --env .env.emulator",
      "Every svc.ts key: docs/policy.md in the svc-config package.",
      "",
    ].join("\n"),
  );
  return 0;
}
