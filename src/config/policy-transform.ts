/**
 * The transform jiti runs on a policy and on the local modules it imports: esbuild's
 * `transform` to CommonJS instead of jiti's default Babel pipeline, which spent seconds on a
 * large `svc.ts` (evaluating 1,000 resources fits in 150 ms).
 *
 * The policy file itself is transformed asynchronously before evaluation starts (esbuild's
 * service starts in the background while jiti loads); the modules it imports are transformed
 * synchronously as jiti requires them. `import.meta.url`, `.dirname` and `.filename` become the
 * module's own values, `import.meta.env` is `process.env`, and a dynamic `import()` becomes a
 * `require`, so everything a policy loads goes through jiti (fresh on every evaluation).
 *
 * esbuild reprints the code (helpers first, its own line breaks), so each module's source map is
 * kept and {@link restorePolicyLines} puts the policy's own line and column back into the stack
 * of an error thrown while it runs, as a user reading `svc.ts` expects.
 */
import { SourceMap, type SourceMapPayload } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TransformOptions as EsbuildTransformOptions, Message } from "esbuild";
import type { TransformOptions, TransformResult } from "jiti";
import { findUnclosedBracket } from "./unclosed-bracket.js";

/** The part of esbuild's API the policy transform uses. */
export interface PolicyEsbuild {
  transform(source: string, options: EsbuildTransformOptions): Promise<{ code: string; map: string }>;
  transformSync(source: string, options: EsbuildTransformOptions): { code: string; map: string };
}

/** A module used top-level `await`, which a synchronously evaluated policy cannot. */
export class TopLevelAwaitSyntaxError extends SyntaxError {
  /** The module that awaits (the policy or a module it imports). */
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = "SyntaxError";
    this.file = file;
  }
}

/**
 * What is kept of each module last transformed, by file: its source map (decoded on first use)
 * and the last line of esbuild's glue before the module's own code (helpers and export getters).
 */
const transformed = new Map<string, { map: string; glueLines: number; decoded?: SourceMap }>();

/** What jiti puts before a module's code on its first line. */
const WRAPPER_PREFIX = "(function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ";

/** Keeps the map of one transformed module and returns its code. */
function remember(filename: string, result: { code: string; map: string }): string {
  const lines = result.code.split("\n");
  transformed.set(filename, { map: result.map, glueLines: lines.findIndex((line) => line.startsWith("module.exports = __toCommonJS(")) + 1 });
  return result.code;
}

/**
 * Where a 1-based position of a transformed module's code comes from: `undefined` when the
 * module was not transformed, `null` in esbuild's glue (helpers, export getters), else the
 * module's own line and column.
 */
function originalPosition(filename: string, line: number, column: number): { line: number; column: number } | null | undefined {
  const module = transformed.get(filename);
  if (module === undefined) return undefined;
  if (line <= module.glueLines) return null;
  module.decoded ??= new SourceMap(JSON.parse(module.map) as SourceMapPayload);
  const found = module.decoded.findEntry(line - 1, line === 1 ? column - 1 - WRAPPER_PREFIX.length : column - 1);
  if (!("originalLine" in found)) return null;
  return { line: found.originalLine + 1, column: found.originalColumn + 1 };
}

/**
 * Rewrites the stack of `err` (thrown while a policy or its closure ran) so its frames in
 * transformed modules show the line and column of the module's own source; frames in esbuild's
 * glue are left out, so the first frame in the policy's files is where its code failed.
 * Returns `err`.
 */
export function restorePolicyLines<T>(err: T): T {
  if (!(err instanceof Error) || typeof err.stack !== "string" || transformed.size === 0) return err;
  const frames = err.stack.split("\n").flatMap((text) => {
    const at = /^(\s+at .*?)((?:file:\/\/)?\/[^()\s]+?):(\d+):(\d+)(\)?)$/.exec(text);
    if (at === null) return [text];
    const [, head = "", path = "", line = "", column = "", tail = ""] = at;
    const original = originalPosition(path.startsWith("file://") ? fileURLToPath(path) : path, Number(line), Number(column));
    if (original === null) return [];
    return original === undefined ? [text] : [`${head}${path}:${original.line}:${original.column}${tail}`];
  });
  try {
    err.stack = frames.join("\n");
  } catch {
    // A frozen error keeps the stack it has.
  }
  return err;
}

/**
 * esbuild's options for one module: CommonJS for jiti's synchronous evaluation.
 *
 * esbuild names the module by a neutral extension (`.mjs` as `.js`, `.mts` as `.ts`): for a file
 * it takes as Node's ES module syntax it would give every default import the whole `exports` of
 * the imported module, as Node does for a CommonJS dependency; but every module a policy imports
 * is transformed to CommonJS here, so an imported ES module would arrive as `{ default: … }`.
 * With the neutral name an import honours `__esModule`: an ES module gives its default export,
 * a CommonJS file (no marker) its `module.exports`, at any depth and from any kind of file.
 */
function esbuildOptions(filename: string, ts: boolean): EsbuildTransformOptions {
  return {
    loader: ts ? "ts" : "js",
    sourcemap: "external",
    sourcesContent: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    sourcefile: filename.replace(/\.m([jt]s)$/, ".$1"),
    logLevel: "silent",
    // JavaScript keeps the last of two equal keys in one object literal without a word, so a
    // bucket or function written twice would plan as whichever came last; TypeScript refuses it.
    logOverride: { "duplicate-object-key": "error" },
    supported: { "dynamic-import": false },
    define: {
      "import.meta.url": JSON.stringify(pathToFileURL(filename).href),
      "import.meta.dirname": JSON.stringify(dirname(filename)),
      "import.meta.filename": JSON.stringify(filename),
      "import.meta.env": "process.env",
    },
  };
}

/**
 * A module that does not parse: `message` is `file:line:column: <esbuild's first error>`, then
 * the line itself, then where a bracket was probably left open when that is elsewhere.
 */
export class PolicySyntaxError extends SyntaxError {
  /** The module that does not parse (the policy or a module it imports). */
  readonly file: string;
  /** Where to look: the bracket left open when one is found, else the error's own position. */
  readonly location: string;
  constructor(file: string, message: string, location: string, cause: unknown) {
    super(message, { cause });
    this.name = "SyntaxError";
    this.file = file;
    this.location = location;
  }
}

/**
 * esbuild's failure as the error jiti's evaluation throws: a top-level `await` as
 * {@link TopLevelAwaitSyntaxError}, anything else as a {@link PolicySyntaxError} naming esbuild's
 * first error at its own 1-based line and column (esbuild counts columns from 0).
 */
function transformError(filename: string, source: string, err: unknown): Error {
  const first = (err as { errors?: Message[] }).errors?.[0];
  if (first === undefined) return err instanceof Error ? err : new Error(String(err));
  const at = first.location;
  const where = at === null ? filename : `${filename}:${at.line}:${at.column + 1}`;
  if (first.text.startsWith("Top-level await")) return new TopLevelAwaitSyntaxError(filename, `${where}: top-level await is not supported in a policy`);
  const duplicate = first.id === "duplicate-object-key" ? /^Duplicate key (".*") in object literal$/.exec(first.text)?.[1] : undefined;
  const lines = [duplicate === undefined ? `${where}: ${first.text}` : `${where}: ${duplicate} is set twice in one object; only the last value would count`];
  if (at !== null && at.lineText.trim() !== "") lines.push(`  > ${at.lineText.trim()}`);
  const original = first.notes[0]?.location;
  if (duplicate !== undefined) {
    if (original) lines.push(`  the first ${duplicate} is at ${filename}:${original.line}:${original.column + 1}: keep one of them`);
    return new PolicySyntaxError(filename, lines.join("\n"), where, err);
  }
  const open = at === null ? undefined : findUnclosedBracket(source, at.line);
  const openAt = open === undefined ? undefined : `${filename}:${open.line}:${open.column}`;
  if (open !== undefined) lines.push(`  the "${open.char}" at ${openAt} is probably not closed: the next line that starts with a closing bracket is indented less than line ${open.line}`);
  return new PolicySyntaxError(filename, lines.join("\n"), openAt ?? where, err);
}

/** Transforms the policy file ahead of evaluation; throws the error its evaluation would. */
export async function transformPolicyFile(esbuild: PolicyEsbuild, file: string, source: string): Promise<string> {
  try {
    return remember(file, await esbuild.transform(source, esbuildOptions(file, /\.[cm]?tsx?$/.test(file))));
  } catch (err) {
    throw transformError(file, source, err);
  }
}

/**
 * The `transform` option for jiti: `ready` holds the policy file's code from
 * {@link transformPolicyFile} (used when jiti asks for exactly that source); other modules are
 * transformed synchronously. A failure throws, so evaluation stops at the module that failed.
 */
export function policyTransform(esbuild: PolicyEsbuild, ready: { file: string; source: string; code: string }): (options: TransformOptions) => TransformResult {
  return ({ source, filename = "", ts = false }) => {
    if (filename === ready.file && source === ready.source) return { code: ready.code };
    try {
      return { code: remember(filename, esbuild.transformSync(source, esbuildOptions(filename, ts))) };
    } catch (err) {
      throw transformError(filename, source, err);
    }
  };
}
