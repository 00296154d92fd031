/**
 * Public surface of function bundling. The engine uses the richer internals directly:
 * `buildFunctionArchive` (archive.ts), `bundleFunctions` (bundle-many.ts), `toFunctionConfig`
 * (entry.ts).
 */
export { buildFunctionBundle, type BuildFunctionBundleOptions } from "./build-function-bundle.js";
export type { BundleWarning } from "./archive.js";
