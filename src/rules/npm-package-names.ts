/**
 * What a package name in `externalPackages` may be: an npm registry name (`sharp`,
 * `@node-rs/argon2`), never a path, a subpath (`sharp/lib`), a version range or a built-in
 * module. Shared by the policy schema and the bundler. Leaf module: no imports.
 */

/** npm's longest package name. */
const MAX_NAME_LENGTH = 214;

/**
 * A scope and a name, each of URL-safe lower-case characters, not starting with `.` or `_` (npm's
 * rule) nor `-` (the name is an npm argument: it must never read as a flag).
 */
const PACKAGE_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;

/**
 * Why `name` is not a package name `externalPackages` accepts, as a phrase completing
 * "… is not a package name: it …", or `null` when it is one.
 */
export function npmPackageNameIssue(name: string): string | null {
  if (name.length === 0) return "is empty";
  if (name.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  if (name.startsWith("node:")) return "names a Node.js built-in, which is never bundled";
  if (name.includes("@", 1)) return "carries a version: the version installed in the project is staged, so write the name alone";
  const slashes = name.split("/").length - 1;
  if (slashes > (name.startsWith("@") ? 1 : 0)) return "is a path or a subpath: name the package itself (its subpaths are external with it)";
  if (!PACKAGE_NAME.test(name)) return "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)";
  return null;
}

