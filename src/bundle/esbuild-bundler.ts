/**
 * The `"esbuild"` bundler path: one minified ESM file `index.mjs` for Node 24,
 * npm dependencies bundled in, `node:` built-ins external, an optional linked source map
 * without embedded sources. Several functions with the same options build in one esbuild call,
 * each output byte-identical to its solo build; the metafile names the files each one read.
 */
import { relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { BuildFailure, BuildOptions, BuildResult, Message, Metafile } from "esbuild";
import { nativeLoaderHint } from "./external-packages-native.js";
import { type EsbuildApi, loadEsbuild } from "./lazy-modules.js";
import { MAX_BUILD_MS, regularFilesOnly } from "./read-guard.js";

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
  /** Absolute entry files, built together; each gives its own output. */
  entries: readonly string[];
  /** Absolute working directory: paths in diagnostics, CommonJS wrappers and maps are relative to it. */
  workingDir: string;
  /**
   * `true`: also emit `index.mjs.map` (linked, no `sourcesContent`). `"inline"` (`svc dev`): the
   * map inside `index.mjs`, its sources as absolute file URLs, so stacks name the user's files
   * wherever the bundle is written.
   */
  sourcemap: boolean | "inline";
  /** Packages left out of the bundle, subpaths included (the function's `externalPackages`). @default none */
  external?: readonly string[];
}

/** What one entry of {@link runEsbuild} gives: archive files, esbuild's warnings and the files read. */
export interface EsbuildOutput {
  files: Map<string, Uint8Array>;
  /** Formatted warnings located in this entry's inputs (or unlocated). */
  warnings: string[];
  /** Absolute paths of every source file the entry's bundle was built from (esbuild's metafile). */
  inputs: string[];
}

/**
 * The exact esbuild options of the bundling contract. One entry builds to `outfile: "index.mjs"`; several
 * build in one call to `index.<i>.mjs` beside it (same directory, so source maps and CommonJS
 * wrappers name the same paths), renamed to `index.mjs` afterwards.
 */
export function esbuildOptions(options: RunEsbuildOptions): BuildOptions {
  const output: BuildOptions =
    options.entries.length === 1
      ? { entryPoints: [...options.entries], outfile: "index.mjs" }
      : {
          entryPoints: options.entries.map((entry, i) => ({ in: entry, out: batchName(i) })),
          outdir: ".",
          outExtension: { ".js": ".mjs" },
        };
  return {
    ...output,
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node24",
    minify: true,
    legalComments: "none",
    absWorkingDir: options.workingDir,
    banner: { js: COMMONJS_SHIM_BANNER },
    logLevel: "silent",
    metafile: true,
    ...(options.external !== undefined && options.external.length > 0 ? { external: [...options.external] } : {}),
    ...sourcemapOptions(options),
  };
}

function sourcemapOptions(options: RunEsbuildOptions): BuildOptions {
  if (options.sourcemap === "inline") return { sourcemap: "inline", sourcesContent: false, sourceRoot: `${pathToFileURL(options.workingDir).href}/` };
  return options.sourcemap ? { sourcemap: "linked", sourcesContent: false } : { sourcemap: false };
}

/** The output name of the `i`-th entry of a batch: `index.<i>` (→ `index.<i>.mjs`). */
function batchName(i: number): string {
  return `index.${i}`;
}

/**
 * Bundles the entries in one esbuild call and returns one output per entry, in order. Throws an
 * Error whose message quotes esbuild's diagnostics with file, line and column (relative to
 * `workingDir`) when the build fails; a batch cannot tell whose error it is, so the caller
 * builds its entries one by one to name the function.
 */
export async function runEsbuild(options: RunEsbuildOptions): Promise<EsbuildOutput[]> {
  const esbuild = await loadEsbuild();
  const what = options.entries.length === 1 ? options.entries[0] : `${options.entries.length} entries`;
  let result: Awaited<ReturnType<typeof boundedBuild>>;
  try {
    result = await boundedBuild(esbuild, { ...esbuildOptions(options), plugins: [regularFilesOnly()] }, what);
  } catch (err) {
    if (isBuildFailure(err)) {
      const hint = nativeLoaderHint(err.errors.map((m) => m.text));
      throw new Error(`esbuild could not bundle ${what}:\n${formatMessages(err.errors)}${hint === undefined ? "" : `\n    hint: ${hint}`}`, { cause: err });
    }
    throw err;
  }
  const single = options.entries.length === 1;
  const metafile = result.metafile ?? { inputs: {}, outputs: {} };
  // Outputs sit next to index.mjs in the working directory; their relative paths are archive paths.
  // Grouped by their entry's prefix once: a batch of 256 entries has 512 outputs.
  const outputsOf = new Map<string, { path: string; contents: Uint8Array }[]>();
  for (const output of result.outputFiles ?? []) {
    const path = relative(options.workingDir, output.path).split(sep).join("/");
    const prefix = single ? "index." : path.slice(0, path.indexOf(".", "index.".length) + 1);
    outputsOf.set(prefix, [...(outputsOf.get(prefix) ?? []), { path, contents: output.contents }]);
  }
  return options.entries.map((entry, i) => {
    const prefix = single ? "index." : `${batchName(i)}.`;
    const files = new Map<string, Uint8Array>();
    for (const output of outputsOf.get(prefix) ?? []) {
      if (!output.path.startsWith(prefix)) continue;
      files.set(`index.${output.path.slice(prefix.length)}`, single ? output.contents : renameMapUrl(output.contents, prefix));
    }
    if (!files.has("index.mjs")) throw new Error(`esbuild produced no index.mjs for ${entry}`);
    const reached = reachedInputs(metafile, `${prefix}mjs`);
    const warnings = result.warnings.filter((w) => single || w.location === null || reached.has(w.location.file));
    return {
      files,
      warnings: warnings.map(formatMessage),
      inputs: [...reached].map((path) => resolve(options.workingDir, path)).sort(),
    };
  });
}

/**
 * One build under {@link MAX_BUILD_MS}: past it the operation fails naming what was bundled
 * instead of waiting on a pathological import graph (esbuild cannot cancel a `build` call; its
 * service finishes or is ended with the process).
 */
async function boundedBuild(esbuild: EsbuildApi, options: BuildOptions, what: string | undefined): Promise<BuildResult> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`esbuild did not finish bundling ${what} within ${MAX_BUILD_MS / 1000} s; look for an import of something that never ends`)), MAX_BUILD_MS);
    timer.unref();
  });
  try {
    return await Promise.race([esbuild.build(options), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every input key (relative to the working directory, as in the metafile) reached from the
 * output `outputKey`'s entry through non-external imports; all inputs when the entry is unknown.
 */
function reachedInputs(metafile: Metafile, outputKey: string): Set<string> {
  const entry = metafile.outputs[outputKey]?.entryPoint;
  if (entry === undefined || metafile.inputs[entry] === undefined) return new Set(Object.keys(metafile.inputs));
  const reached = new Set<string>([entry]);
  const queue = [entry];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const edge of metafile.inputs[next]?.imports ?? []) {
      if (edge.external === true || reached.has(edge.path) || metafile.inputs[edge.path] === undefined) continue;
      reached.add(edge.path);
      queue.push(edge.path);
    }
  }
  return reached;
}

/** A batch output ends with `//# sourceMappingURL=index.<i>.mjs.map`: point it at `index.mjs.map`, as a solo build does. */
function renameMapUrl(contents: Uint8Array, prefix: string): Uint8Array {
  const batchUrl = Buffer.from(`//# sourceMappingURL=${prefix}mjs.map\n`);
  const tail = contents.subarray(contents.byteLength - batchUrl.byteLength);
  if (contents.byteLength < batchUrl.byteLength || !batchUrl.equals(tail)) return contents;
  const head = contents.subarray(0, contents.byteLength - batchUrl.byteLength);
  return Buffer.concat([head, Buffer.from("//# sourceMappingURL=index.mjs.map\n")]);
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
