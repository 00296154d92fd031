/**
 * Where in the user's own source a policy threw: the first stack frame in the policy's directory
 * (outside `node_modules`), as `path:line:column` of the file the user wrote. The stack's columns
 * are those of the transpiled code jiti ran, so they are mapped back through a source map of
 * the same transpilation; when none can be had, the location is the stack's `path:line`.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname } from "node:path";

/** Transpiles `source` of `file` as evaluation did, returning the code with an inline source map. */
export type TranspileWithMap = (file: string, source: string) => string;

/** jiti 2 runs a module's code after this prefix on the same line, so line 1's columns include it. */
const JITI_WRAPPER_PREFIX = "(function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ";

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/;

interface Frame {
  path: string;
  line: number;
  column: number;
}

/** The first frame of `cause.stack` inside the policy's directory and outside `node_modules`. */
function firstPolicyFrame(file: string, cause: unknown): Frame | undefined {
  const stack = typeof cause === "object" && cause !== null ? (cause as { stack?: unknown }).stack : undefined;
  if (typeof stack !== "string") return undefined;
  const dir = dirname(file);
  for (const match of stack.matchAll(/(?:\(|at )((?:file:\/\/)?\/[^()\s]+?):(\d+):(\d+)\)?$/gm)) {
    const path = (match[1] ?? "").replace(/^file:\/\//, "");
    if (path.startsWith(dir) && !path.includes("/node_modules/")) return { path, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

/** The 1-based source position of a 1-based position in the transpiled code, or undefined. */
function sourcePosition(code: string, frame: Frame): Frame | undefined {
  const map = INLINE_MAP.exec(code)?.[1];
  if (map === undefined) return undefined;
  const column = frame.line === 1 ? frame.column - JITI_WRAPPER_PREFIX.length : frame.column;
  if (column < 1) return undefined;
  const entry: { originalLine?: number; originalColumn?: number } = new SourceMap(JSON.parse(Buffer.from(map, "base64").toString("utf8"))).findEntry(frame.line - 1, column - 1);
  if (entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  return { path: frame.path, line: entry.originalLine + 1, column: entry.originalColumn + 1 };
}

/**
 * `path:line:column` of the first frame of `cause`'s stack in the policy's own files, in the
 * source the user wrote; `path:line` when the column cannot be recovered (the transpiler keeps
 * lines); undefined when the stack has no such frame.
 */
export function policyStackLocation(policyFile: string, cause: unknown, transpile: TranspileWithMap): string | undefined {
  const frame = firstPolicyFrame(policyFile, cause);
  if (frame === undefined) return undefined;
  let position: Frame | undefined;
  try {
    const source = readFileSync(frame.path, "utf8");
    // The throw came from transpiled code: jiti forces it for the policy, and a helper whose
    // native require throws is run again, transpiled, before the error reaches us.
    position = sourcePosition(transpile(frame.path, source), frame);
  } catch {
    // The file changed or vanished since it ran, or the transform failed: the stack's line still holds.
    position = undefined;
  }
  return position === undefined ? `${frame.path}:${frame.line}` : `${position.path}:${position.line}:${position.column}`;
}
