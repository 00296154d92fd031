/**
 * Bundles every declared function before any mutation (engine.md §14): concurrently, at most
 * `concurrency` at once so memory stays bounded, collecting every failure into one `BundleError`.
 */
import pLimit from "p-limit";
import type { ResolvedFunction } from "../model/desired-state.js";
import { BundleError, ErrorCode, PlatformError, type BundleFailure } from "../errors/index.js";
import { buildFunctionArchive, type BuildFunctionArchiveOptions, type FunctionArchive } from "./archive.js";
import { toFunctionConfig } from "./entry.js";
import { bundleFailure } from "./failure.js";

/** Default number of functions bundled at once. */
export const DEFAULT_BUNDLE_CONCURRENCY = 8;

/** Progress of one function's bundle, for the engine's `bundle` event (engine.md §8.4). */
export type BundleProgress =
  | { slug: string; phase: "start" }
  | { slug: string; phase: "done"; zipBytes: number; zipSha256: string };

/** Options of {@link bundleFunctions}. */
export interface BundleFunctionsOptions extends BuildFunctionArchiveOptions {
  /**
   * At most this many functions are bundled at once (1–16).
   * @default 8
   */
  concurrency?: number;
  /** Called when a function starts and finishes bundling; its exceptions are ignored. */
  onProgress?: (progress: BundleProgress) => void;
}

/**
 * Bundles `functions` (entry search included) and returns their archives by slug, in input
 * order. When any fails, the others still finish and one `BundleError` lists every failure.
 * Throws `PLATFORM_INVALID_OPTIONS` for a concurrency outside 1–16.
 */
export async function bundleFunctions(
  functions: readonly ResolvedFunction[],
  options: BundleFunctionsOptions = {},
): Promise<Map<string, FunctionArchive>> {
  const concurrency = options.concurrency ?? DEFAULT_BUNDLE_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    throw new PlatformError(
      ErrorCode.INVALID_OPTIONS,
      `concurrency must be an integer from 1 to 16, got ${String(concurrency)}`,
      { details: { option: "concurrency", value: String(concurrency) } },
    );
  }
  const progress = (event: BundleProgress): void => {
    try {
      options.onProgress?.(event);
    } catch {
      // A failing progress listener must not fail the bundle.
    }
  };
  const limit = pLimit(concurrency);
  const outcomes = await Promise.all(
    functions.map((fn) =>
      limit(async (): Promise<FunctionArchive | BundleError> => {
        progress({ slug: fn.slug, phase: "start" });
        try {
          const archive = await buildFunctionArchive(await toFunctionConfig(fn), options);
          progress({ slug: fn.slug, phase: "done", zipBytes: archive.zipBytes, zipSha256: archive.zipSha256 });
          return archive;
        } catch (err) {
          if (err instanceof BundleError) return err;
          return bundleFailure(fn.slug, err instanceof Error ? err.message : String(err), { cause: err });
        }
      }),
    ),
  );
  const archives = new Map<string, FunctionArchive>();
  const errors: BundleError[] = [];
  for (const outcome of outcomes) {
    if (outcome instanceof BundleError) errors.push(outcome);
    else archives.set(outcome.slug, outcome);
  }
  if (errors.length > 0) {
    const failures: BundleFailure[] = errors.flatMap((e) => e.failures);
    throw new BundleError(failures, errors.length === 1 ? errors[0]?.cause : undefined);
  }
  return archives;
}
