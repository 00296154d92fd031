import { symlinkSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { foreignBinaryIssue, isNativeLibraryPath } from "../../../src/bundle/external-packages-binaries.js";
import { installedPackages, installedVersion } from "../../../src/bundle/external-packages-installed.js";
import { nativeLoaderHint, packageOfInput, undeclaredNativeWarnings } from "../../../src/bundle/external-packages-native.js";
import { npmInstallArgs } from "../../../src/bundle/external-packages-stage.js";
import { esbuildOptions } from "../../../src/bundle/esbuild-bundler.js";
import { npmPackageNameIssue } from "../../../src/rules/npm-package-names.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { ARM64_GLIBC, X86_64, elfHeader } from "./elf-fixtures.js";

const trees: TempTree[] = [];
const tree = (files: Record<string, string>): TempTree => {
  const t = createTempTree(files);
  trees.push(t);
  return t;
};
afterEach(() => {
  for (const t of trees.splice(0)) t.remove();
});

describe("the binary rule: linux/arm64/glibc only", () => {
  it.each<[string, string, Uint8Array, string | null]>([
    ["an AArch64 glibc addon", "x.node", ARM64_GLIBC, null],
    ["an AArch64 shared library with a version suffix", "lib/libvips.so.42.17.1", ARM64_GLIBC, null],
    ["an AArch64 executable without an extension", "bin/esbuild", ARM64_GLIBC, null],
    ["plain JavaScript", "index.js", new TextEncoder().encode("module.exports = 1"), null],
    ["an x86-64 addon", "x.node", X86_64, "is built for x86-64, not AArch64 (arm64)"],
    ["an x86-64 executable without an extension", "bin/esbuild", X86_64, "is built for x86-64, not AArch64 (arm64)"],
    ["a 32-bit ARM addon", "x.node", elfHeader({ machine: 40, bits: 32 }), "is not a 64-bit little-endian ELF binary"],
    ["a big-endian ELF", "x.so", elfHeader({ machine: 183, endian: "big" }), "is not a 64-bit little-endian ELF binary"],
    ["an unknown machine", "x.node", elfHeader({ machine: 999 }), "is built for ELF machine 999, not AArch64 (arm64)"],
    ["a musl build", "x.node", elfHeader({ machine: 183, tail: "\0libc.musl-aarch64.so.1\0" }), "is linked against musl, not glibc"],
    ["a Mach-O addon", "x.node", new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), "is not a Linux ELF binary (a macOS or Windows build?)"],
    ["an empty .so", "x.so", new Uint8Array(), "is not a Linux ELF binary (a macOS or Windows build?)"],
    ["a truncated ELF", "x.node", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1]), "is not a 64-bit little-endian ELF binary"],
  ])("%s (%s)", (_label, path, bytes, issue) => {
    expect(foreignBinaryIssue(path, bytes)).toBe(issue);
  });

  it.each([
    ["a.node", true],
    ["libx.so", true],
    ["libx.so.1", true],
    ["libx.so.1.2.3", true],
    ["a.so.js", false],
    ["node.js", false],
  ])("names %s a native library: %s", (path, expected) => {
    expect(isNativeLibraryPath(path)).toBe(expected);
  });
});

describe("npm package names of externalPackages", () => {
  it.each(["sharp", "@node-rs/argon2", "lodash.merge", "a-b_c~d", "0x"])("accepts %s", (name) => {
    expect(npmPackageNameIssue(name)).toBeNull();
  });

  it.each([
    ["", "is empty"],
    ["@scope", "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)"],
    ["@a/b/c", "is a path or a subpath: name the package itself (its subpaths are external with it)"],
    ["../x", "is a path or a subpath: name the package itself (its subpaths are external with it)"],
    [".hidden", "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)"],
    ["_private", "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)"],
    ["a b", "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)"],
    ["x --registry=http://evil", "is a path or a subpath: name the package itself (its subpaths are external with it)"],
    ["-x", "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)"],
    ["--registry=x", "is not an npm package name (lower-case letters, digits, -, ., _ and ~, optionally under an @scope/)"],
  ])("refuses %j", (name, issue) => {
    expect(npmPackageNameIssue(name)).toBe(issue);
  });
});

describe("the installed version (offline)", () => {
  it("is the nearest node_modules/<name>/package.json above the entry, scoped names included", async () => {
    const t = tree({
      "node_modules/@node-rs/argon2/package.json": JSON.stringify({ name: "@node-rs/argon2", version: "2.2.1" }),
      "apps/api/node_modules/@node-rs/argon2/package.json": JSON.stringify({ name: "@node-rs/argon2", version: "2.0.0" }),
      "apps/api/functions/auth/index.ts": "",
      "apps/web/functions/auth/index.ts": "",
    });
    expect(await installedVersion("@node-rs/argon2", t.path("apps/api/functions/auth"))).toBe("2.0.0");
    expect(await installedVersion("@node-rs/argon2", t.path("apps/web/functions/auth"))).toBe("2.2.1");
    expect(await installedVersion("sharp", t.path("apps/web/functions/auth"))).toBeUndefined();
  });

  it.each([
    ["a version with npm flags", { version: "1.0.0 --registry=http://evil" }],
    ["a range", { version: "^1.0.0" }],
    ["a tag", { version: "latest" }],
    ["a number", { version: 1 }],
    ["no version", {}],
  ])("skips a package.json with %s (never handed to npm)", async (_label, manifest) => {
    const t = tree({ "node_modules/x/package.json": JSON.stringify({ name: "x", ...manifest }) });
    expect(await installedVersion("x", t.root)).toBeUndefined();
  });

  it("skips an unreadable or broken package.json and a directory in its place", async () => {
    const t = tree({ "node_modules/x/package.json": "{ not json", "node_modules/y/package.json/": "" });
    expect(await installedVersion("x", t.root)).toBeUndefined();
    expect(await installedVersion("y", t.root)).toBeUndefined();
  });

  it("names every missing package and the fix; includeFiles: false needs no install", async () => {
    const t = tree({ "node_modules/a/package.json": JSON.stringify({ version: "1.2.3" }) });
    const result = await installedPackages(
      [
        { name: "a", includeFiles: true },
        { name: "b", includeFiles: true },
        { name: "c", includeFiles: false },
      ],
      t.root,
    );
    expect(result.installed).toEqual([
      { name: "a", version: "1.2.3", includeFiles: true },
      { name: "c", version: "", includeFiles: false },
    ]);
    expect(result.missing).toEqual([
      { name: "b", message: `external package b is not installed in the project (no node_modules/b/package.json with a version above ${t.root}): run npm install b, since the installed version is the one staged` },
    ]);
  });
});

describe("staging command line", () => {
  it("is npm install <name>@<installed version> for linux/arm64/glibc without scripts, audit, fund or lock file, into the staging directory", () => {
    const args = npmInstallArgs([{ name: "@node-rs/argon2", version: "2.2.1", includeFiles: true }, { name: "sharp", version: "0.33.5", includeFiles: true }], "/tmp/stage");
    expect(args).toEqual([
      "install",
      "@node-rs/argon2@2.2.1",
      "sharp@0.33.5",
      "--os=linux",
      "--cpu=arm64",
      "--libc=glibc",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--prefix=/tmp/stage",
      "--global=false",
      "--save=false",
    ]);
  });

  it("marks the packages external in esbuild's options, and only when there are some", () => {
    const base = { entries: ["/p/index.ts"], workingDir: "/p", sourcemap: false };
    expect(esbuildOptions({ ...base, external: ["@node-rs/argon2"] }).external).toEqual(["@node-rs/argon2"]);
    expect(esbuildOptions({ ...base, external: [] })).not.toHaveProperty("external");
    expect(esbuildOptions(base)).not.toHaveProperty("external");
  });
});

describe("undeclared native packages among a bundle's inputs", () => {
  it.each<[string, string, { name: string; root: string } | null]>([
    ["a plain package", "/p/node_modules/pg/lib/index.js", { name: "pg", root: "/p/node_modules/pg" }],
    ["a scoped package", "/p/node_modules/@node-rs/argon2/index.js", { name: "@node-rs/argon2", root: "/p/node_modules/@node-rs/argon2" }],
    ["the innermost of nested node_modules", "/p/node_modules/a/node_modules/b/x.js", { name: "b", root: "/p/node_modules/a/node_modules/b" }],
    ["a project file", "/p/src/index.ts", null],
    ["a bare scope directory", "/p/node_modules/@scope/x", null],
  ])("finds the package of %s", (_label, input, expected) => {
    expect(packageOfInput(input)).toEqual(expected);
  });

  it("warns once per undeclared package with native code, naming the fix, in name order", async () => {
    const t = tree({
      "node_modules/gyp/package.json": JSON.stringify({ gypfile: true }),
      "node_modules/gyp/index.js": "",
      "node_modules/gyp/lib.js": "",
      "node_modules/bind/package.json": "{}",
      "node_modules/bind/binding.gyp": "{}",
      "node_modules/bind/index.js": "",
      "node_modules/@x/napi/package.json": JSON.stringify({ napi: { name: "x" } }),
      "node_modules/@x/napi/index.js": "",
      "node_modules/loader/package.json": JSON.stringify({ dependencies: { "node-gyp-build": "^4" } }),
      "node_modules/loader/index.js": "",
      "node_modules/platforms/package.json": JSON.stringify({ optionalDependencies: { "platforms-linux-x64-gnu": "1.0.0" } }),
      "node_modules/platforms/index.js": "",
      "node_modules/plain/package.json": JSON.stringify({ dependencies: { lodash: "^4" } }),
      "node_modules/plain/index.js": "",
      "node_modules/declared/package.json": JSON.stringify({ gypfile: true }),
      "node_modules/declared/index.js": "",
      "node_modules/nomanifest/index.js": "",
    });
    const inputs = ["gyp/index.js", "gyp/lib.js", "bind/index.js", "@x/napi/index.js", "loader/index.js", "platforms/index.js", "plain/index.js", "declared/index.js", "nomanifest/index.js"].map((p) => t.path(`node_modules/${p}`));
    const warnings = await undeclaredNativeWarnings("api", [t.path("index.ts"), ...inputs], ["declared"]);
    expect(warnings).toEqual(
      ["@x/napi", "bind", "gyp", "loader", "platforms"].map(
        (name) => `${name} has native code, which the bundle cannot carry: add "${name}" to functions.api.externalPackages so it ships built for linux/arm64`,
      ),
    );
  });

  it("turns esbuild's .node loader error into the package to declare (a platform package's parent)", () => {
    expect(nativeLoaderHint(['No loader is configured for ".node" files: node_modules/@node-rs/argon2-linux-x64-gnu/argon2.linux-x64-gnu.node'])).toBe(
      'a package with native code cannot be bundled: add "@node-rs/argon2" to the function\'s externalPackages so it ships built for linux/arm64',
    );
    expect(nativeLoaderHint(['No loader is configured for ".node" files: node_modules/bcrypt/lib/binding/napi-v3/bcrypt_lib.node'])).toContain('add "bcrypt"');
    expect(nativeLoaderHint(['Could not resolve "x"'])).toBeUndefined();
  });

  it("does not follow a symlinked package manifest out of reach when it cannot be read", async () => {
    const t = tree({ "node_modules/link/index.js": "" });
    symlinkSync(t.path("missing.json"), t.path("node_modules/link/package.json"));
    expect(await undeclaredNativeWarnings("api", [t.path("node_modules/link/index.js")], [])).toEqual([]);
  });
});
