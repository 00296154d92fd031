/** The public default bundler: one function to its canonical ZIP bytes. */
import type { ResolvedFunctionConfig } from "../model/desired-state.js";
import { buildFunctionArchive, type BundleWarning } from "./archive.js";

/** Options of {@link buildFunctionBundle}. */
export interface BuildFunctionBundleOptions {
  /** Receives bundler warnings (esbuild warnings, skipped symlink cycles); its exceptions are ignored. */
  onWarning?: (warning: BundleWarning) => void;
}

/**
 * The default bundler: builds `fn` with its `bundler` (`"esbuild"`, `"none"` or a custom
 * `FileBundler`) into a deterministic ZIP: sorted entries, fixed dates and
 * permissions, so the same sources give identical bytes on any machine. esbuild and jszip are
 * loaded on the first call only. Rejects with a `BundleError` (`PLATFORM_BUNDLE_FAILED`) naming
 * the function and the cause: missing entry, esbuild diagnostics with file and line, bad
 * output, or a limit (10 MiB zipped, 64 MiB unzipped, 4096 entries) with the largest files.
 */
export async function buildFunctionBundle(
  fn: ResolvedFunctionConfig,
  options: BuildFunctionBundleOptions = {},
): Promise<Uint8Array> {
  const archive = await buildFunctionArchive(fn, options.onWarning ? { onWarning: options.onWarning } : {});
  return archive.zip;
}
