import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { POLICY_FILE_NAMES } from "../../config/find-policy-file.js";
import { CliError, CliErrorCode } from "../../errors/cli-errors.js";
import type { CommandContext } from "../context.js";
import { localWrite, writeLocalFile } from "../files.js";
import { inspectProject, MINIMAL_TSCONFIG, setupNotes } from "./init-project-check.js";
import { ENV_TYPES, HELLO_FUNCTION, POLICY_EMPTY, POLICY_WITH_EXAMPLE } from "./init-templates.js";

/** Flags of `svc config init`. */
export interface InitFlags {
  force?: boolean;
  /** commander's `--no-example` sets this to false. */
  example?: boolean;
  /** commander's `--no-tsconfig` sets this to false. */
  tsconfig?: boolean;
}

/** The files init writes, relative to the working directory. */
export function initFiles(example: boolean): Record<string, string> {
  return example
    ? { "svc.ts": POLICY_WITH_EXAMPLE, "functions/hello/index.ts": HELLO_FUNCTION, "svc-env.d.ts": ENV_TYPES }
    : { "svc.ts": POLICY_EMPTY, "svc-env.d.ts": ENV_TYPES };
}

/**
 * `svc config init`: no API calls; scaffolds `svc.ts`, an example function and env types, and a
 * minimal `tsconfig.json` when the app has none (unless `--no-tsconfig`). Refuses
 * (`CLI_FILE_EXISTS`) when a policy or target file exists, unless `--force`, which overwrites only
 * these files. Never edits package.json or an existing tsconfig.json: it says what they lack.
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
  const setup = inspectProject(ctx.io.cwd);
  const writeTsconfig = !setup.tsconfig.found && flags.tsconfig !== false;
  for (const [name, content] of Object.entries(writeTsconfig ? { ...files, "tsconfig.json": MINIMAL_TSCONFIG } : files)) {
    const path = join(ctx.io.cwd, name);
    mkdirSync(dirname(path), { recursive: true });
    writeLocalFile(localWrite(ctx.io.cwd, "init", name), content, { mode: 0o644 });
    ctx.out([`wrote ${name}`]);
  }
  const notes = setupNotes(setup, writeTsconfig);
  if (notes.length > 0) ctx.info(["", "Found:", ...notes.map((note) => `  - ${note}`)]);
  ctx.info(nextSteps(missingPackages(ctx.io.cwd)));
  return 0;
}

/** Why each package the scaffold needs matters, for the install step. */
const NEEDED: Record<string, string> = {
  "svc-config": "svc-config: the tarball or path the README's Install section names",
  "@types/node": "@types/node: types the process.env svc.ts reads",
};

/** The packages of {@link NEEDED} that no `node_modules` from `cwd` upwards holds. */
function missingPackages(cwd: string): string[] {
  return Object.keys(NEEDED).filter((name) => {
    for (let dir = cwd; ; dir = dirname(dir)) {
      if (existsSync(join(dir, "node_modules", name, "package.json"))) return false;
      if (dirname(dir) === dir) return true;
    }
  });
}

/** What to do after init: install only what is missing, validate, plan; locally first against the emulator. */
function nextSteps(missing: readonly string[]): string[] {
  const steps = [
    ...(missing.length === 0 ? [] : [`npm install --save-dev ${missing.join(" ")}   (${missing.map((name) => NEEDED[name]).join("; ")})`]),
    "npx svc config validate   (offline check, no key needed)",
    "export SVC_API_KEY=… SVC_PROJECT_ID=…, then npx svc config plan",
  ];
  return [
    "",
    "Next steps:",
    ...steps.map((step, i) => `  ${i + 1}. ${step}`),
    "Try it locally first, against the emulator (its SVC_* lines go to .env.emulator):",
    "  npx svc emulator --port 0 > .env.emulator &",
    "  until grep -qs SVC_CLAIM_API_HOST .env.emulator; do sleep 0.2; done",
    "  npx svc config plan --env .env.emulator",
    "Every svc.ts key: docs/policy.md in the svc-config package.",
  ];
}
