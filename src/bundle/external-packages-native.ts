/**
 * Native packages a bundle cannot carry: a package among esbuild's inputs that has native code
 * (a `binding.gyp`, a `gypfile`, a napi-rs or node-pre-gyp manifest, a native loader dependency,
 * or platform builds as optional dependencies) loads a binary the single `index.mjs` does not
 * contain. Each one the function does not declare in `externalPackages` is a warning naming the fix.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** Dependencies that exist to load a compiled addon. */
const NATIVE_LOADERS = ["node-gyp-build", "prebuild-install", "@mapbox/node-pre-gyp", "node-pre-gyp", "bindings", "node-addon-api", "nan"];

/** Optional dependencies named after a platform (`pkg-linux-x64-gnu`, `@esbuild/darwin-arm64`). */
const PLATFORM_PACKAGE = /(?:^|[-/.])(?:linux|darwin|win32|freebsd|android)(?:$|[-.])/;

/**
 * The package an input file belongs to, from its last `node_modules/` segment: `{ name, root }`,
 * or `null` for a file outside `node_modules/`.
 */
export function packageOfInput(path: string): { name: string; root: string } | null {
  const normalized = path.split("\\").join("/");
  const at = normalized.lastIndexOf("/node_modules/");
  if (at === -1) return null;
  const segments = normalized.slice(at + "/node_modules/".length).split("/");
  const count = segments[0]?.startsWith("@") === true ? 2 : 1;
  if (segments.length <= count) return null;
  const name = segments.slice(0, count).join("/");
  return { name, root: `${normalized.slice(0, at)}/node_modules/${name}` };
}

/** Whether the package in `root` ships or builds native code. */
async function isNativePackage(root: string): Promise<boolean> {
  let manifest: Record<string, unknown> = {};
  try {
    manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (manifest.gypfile === true || manifest.napi !== undefined || manifest.binary !== undefined) return true;
  const deps = { ...asRecord(manifest.dependencies), ...asRecord(manifest.optionalDependencies) };
  if (NATIVE_LOADERS.some((loader) => loader in deps)) return true;
  if (Object.keys(asRecord(manifest.optionalDependencies)).some((name) => PLATFORM_PACKAGE.test(name))) return true;
  return (await stat(join(root, "binding.gyp")).catch(() => undefined))?.isFile() === true;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The warnings for native packages among `inputs` (absolute paths esbuild read) that are not in
 * `declared`, one per package, in name order.
 */
export async function undeclaredNativeWarnings(slug: string, inputs: readonly string[], declared: readonly string[]): Promise<string[]> {
  const roots = new Map<string, string>();
  for (const input of inputs) {
    const pkg = packageOfInput(input);
    if (pkg !== null && !declared.includes(pkg.name) && !roots.has(pkg.name)) roots.set(pkg.name, pkg.root);
  }
  const warnings: string[] = [];
  for (const [name, root] of [...roots].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (await isNativePackage(root)) warnings.push(nativePackageWarning(slug, name));
  }
  return warnings;
}

/** The warning for one undeclared native package. */
function nativePackageWarning(slug: string, name: string): string {
  return `${name} has native code, which the bundle cannot carry: add "${name}" to functions.${slug}.externalPackages so it ships built for linux/arm64`;
}

/**
 * A hint for esbuild's "No loader is configured for ".node" files" error: the package that loads
 * the binary (a platform package's parent, `@node-rs/argon2-linux-x64-gnu` → `@node-rs/argon2`)
 * and the fix; `undefined` when the diagnostics name no `.node` file.
 */
export function nativeLoaderHint(diagnostics: readonly string[]): string | undefined {
  const names = new Set<string>();
  for (const text of diagnostics) {
    const file = /No loader is configured for "\.node" files: (\S+)/.exec(text)?.[1];
    const pkg = file === undefined ? null : packageOfInput(`/${file}`);
    if (pkg !== null) names.add(pkg.name.replace(/-(?:linux|darwin|win32|freebsd|android)-.*$/, ""));
  }
  if (names.size === 0) return undefined;
  const list = [...names].sort().map((n) => `"${n}"`).join(", ");
  return `a package with native code cannot be bundled: add ${list} to the function's externalPackages so it ships built for linux/arm64`;
}
