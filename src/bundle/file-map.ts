/**
 * Custom `FileBundler` output: a map of archive paths to contents, checked
 * before it is zipped: every path relative POSIX without `..`, `.`, empty or absolute segments,
 * every value a string or bytes.
 */
import { escapeUnsafeText } from "../rules/visible-text.js";
import type { FileBundler, ResolvedFunctionConfig } from "../model/desired-state.js";
import { ZIP_ENTRY_NAME_ISSUE_MESSAGES, zipEntryNameIssue } from "../rules/zip-entries.js";
import { bundleFailure } from "./failure.js";

const encoder = new TextEncoder();

/**
 * Runs a custom bundler and converts its map to archive files (strings as UTF-8). Throws a
 * `BundleError` naming the function and every bad path or value.
 */
export async function runFileBundler(fn: ResolvedFunctionConfig, bundler: FileBundler): Promise<Map<string, Uint8Array>> {
  let output: unknown;
  try {
    output = await bundler(fn);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw bundleFailure(fn.slug, `the custom bundler threw: ${why}`, { cause: err });
  }
  if (typeof output !== "object" || output === null || Array.isArray(output) || output instanceof Uint8Array) {
    throw bundleFailure(
      fn.slug,
      `the custom bundler returned ${describe(output)}; it must return an object mapping archive paths to contents`,
    );
  }
  const files = new Map<string, Uint8Array>();
  const problems: string[] = [];
  for (const [path, value] of Object.entries(output)) {
    const issue = zipEntryNameIssue(path);
    if (issue !== null) problems.push(`path "${escapeUnsafeText(path)}": ${ZIP_ENTRY_NAME_ISSUE_MESSAGES[issue]}`);
    else if (typeof value === "string") files.set(path, encoder.encode(value));
    else if (value instanceof Uint8Array) files.set(path, value);
    else problems.push(`path "${escapeUnsafeText(path)}": the content is ${describe(value)}, expected a string or a Uint8Array`);
  }
  if (problems.length > 0) {
    throw bundleFailure(
      fn.slug,
      `the custom bundler returned an invalid file map (${problems.join("; ")}): ` +
        "use relative POSIX paths such as index.mjs or lib/util.js",
    );
  }
  return files;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Uint8Array) return "bytes";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
