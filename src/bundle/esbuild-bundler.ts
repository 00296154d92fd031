/**
 * The `"esbuild"` bundler path (engine.md §14): one minified ESM file `index.mjs` for Node 24,
 * npm dependencies bundled in, `node:` built-ins external, an optional linked source map
 * without embedded sources.
 */
import { relative, sep } from "node:path";
import type { BuildFailure, BuildOptions, Message } from "esbuild";
import { loadEsbuild } from "./lazy-modules.js";

/**
 * Defines `require`, `__filename` and `__dirname` for CommonJS code inside the ESM bundle. The
 * imports use aliases no user code is likely to declare.
 */
export const COMMONJS_SHIM_BANNER = [
  'import { createRequire as __svcCreateRequire } from "node:module";',
  'import { fileURLToPath as __svcFileURLToPath } from "node:url";',
  'import { dirname as __svcDirname } from "node:path";',
  "const require = __svcCreateRequire(import.meta.url);",
  "const __filename = __svcFileURLToPath(import.meta.url);",
  "const __dirname = __svcDirname(__filename);",
].join("\n");

/** Input of {@link runEsbuild}. */
export interface RunEsbuildOptions {
  /** Absolute entry file. */
  entry: string;
  /** Absolute working directory: paths in diagnostics, CommonJS wrappers and maps are relative to it. */
  workingDir: string;
  /** Also emit `index.mjs.map` (linked, no `sourcesContent`). */
  sourcemap: boolean;
}

/** Output of {@link runEsbuild}: archive files and esbuild's warnings, formatted. */
export interface RunEsbuildResult {
  files: Map<string, Uint8Array>;
  warnings: string[];
}

/** The exact esbuild options of engine.md §14. */
export function esbuildOptions(options: RunEsbuildOptions): BuildOptions {
  return {
    entryPoints: [options.entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node24",
    outfile: "index.mjs",
    minify: true,
    legalComments: "none",
    absWorkingDir: options.workingDir,
    banner: { js: COMMONJS_SHIM_BANNER },
    logLevel: "silent",
    ...(options.sourcemap ? { sourcemap: "linked" as const, sourcesContent: false } : { sourcemap: false }),
  };
}

/**
 * Bundles one entry. Throws an Error whose message quotes esbuild's diagnostics with file, line
 * and column (relative to `workingDir`) when the build fails.
 */
export async function runEsbuild(options: RunEsbuildOptions): Promise<RunEsbuildResult> {
  const esbuild = await loadEsbuild();
  let result;
  try {
    result = await esbuild.build(esbuildOptions(options));
  } catch (err) {
    if (isBuildFailure(err)) {
      throw new Error(`esbuild could not bundle ${options.entry}:\n${formatMessages(err.errors)}`, { cause: err });
    }
    throw err;
  }
  const files = new Map<string, Uint8Array>();
  // Outputs sit next to index.mjs in the working directory; their relative paths are archive paths.
  for (const output of result.outputFiles ?? []) {
    files.set(relative(options.workingDir, output.path).split(sep).join("/"), output.contents);
  }
  if (!files.has("index.mjs")) throw new Error("esbuild produced no index.mjs");
  return { files, warnings: result.warnings.map(formatMessage) };
}

/** At most this many diagnostics are quoted; the rest are counted. */
const MAX_QUOTED_MESSAGES = 10;

function formatMessages(messages: readonly Message[]): string {
  const quoted = messages.slice(0, MAX_QUOTED_MESSAGES).map((m) => `    ${formatMessage(m)}`);
  const more = messages.length - quoted.length;
  return [...quoted, ...(more > 0 ? [`    … and ${more} more error(s)`] : [])].join("\n");
}

/** `file:line:column: text`, with the column 1-based as editors show it. */
function formatMessage(message: Message): string {
  const where = message.location
    ? `${message.location.file}:${message.location.line}:${message.location.column + 1}: `
    : "";
  return `${where}${message.text}`;
}

function isBuildFailure(err: unknown): err is BuildFailure {
  return err instanceof Error && Array.isArray((err as Partial<BuildFailure>).errors);
}
