/**
 * How every bundling path reports a failure: a `BundleError` with one failure naming the
 * function, and for limit failures the five largest files.
 */
import { BundleError, type BundleFailure, type ExternalPackagesFailureReason } from "../errors/index.js";
import { formatBytes, largestZipFiles, type ZipFileSize } from "../rules/zip-entries.js";

/**
 * A `BundleError` for one function. With `sizes` (a limit was exceeded), the five largest files
 * are named in the message and in `details.failures[0].largestFiles`.
 */
export function bundleFailure(
  slug: string,
  message: string,
  options: { sizes?: Iterable<ZipFileSize>; cause?: unknown; reason?: ExternalPackagesFailureReason } = {},
): BundleError {
  const failure: BundleFailure = { slug, message, ...(options.reason === undefined ? {} : { reason: options.reason }) };
  if (options.sizes !== undefined) {
    const largest = largestZipFiles(options.sizes);
    const list = largest.map((f) => `${f.path} (${formatBytes(f.bytes)})`).join(", ");
    failure.message = `${message}. Largest files: ${list}. Remove or shrink them (large assets belong in object storage)`;
    failure.largestFiles = largest;
  }
  return new BundleError([failure], options.cause);
}

