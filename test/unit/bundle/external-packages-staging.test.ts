/**
 * Staging external packages through a stand-in `npm` on the PATH (a shell script that writes
 * what the real npm would install, or fails as it would): the error paths, the binary rule on
 * staged files, and the cache. The real registry is exercised by test/e2e/bundle/external-packages.test.ts.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import JSZip from "jszip";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readArchiveBytes } from "../../../src/bundle/archive-ref.js";
import { bundleFunctions } from "../../../src/bundle/bundle-many.js";
import { PackageStager } from "../../../src/bundle/external-packages.js";
import { installForRuntime, StagingError } from "../../../src/bundle/external-packages-stage.js";
import { BundleError } from "../../../src/errors/index.js";
import type { ResolvedFunction } from "../../../src/model/desired-state.js";
import { isAlive } from "../../helpers/processes.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { ARM64_GLIBC, X86_64 } from "./elf-fixtures.js";

/**
 * The stand-in npm. FAKE_NPM_MODE: `install` writes package `fake` (a napi-rs-style loader with
 * platform packages as optional dependencies) and its linux-arm64-gnu package, whose binary is
 * FAKE_NPM_BINARY; `noarm` writes `fake` without it; `badplatform`, `notfound` fail as npm does;
 * `hang` never ends. Every call appends its arguments to FAKE_NPM_LOG.
 */
const FAKE_NPM = `#!/bin/sh
echo "$*" >> "$FAKE_NPM_LOG"
prefix=""
for arg in "$@"; do case "$arg" in --prefix=*) prefix="\${arg#--prefix=}";; esac; done
case "$FAKE_NPM_MODE" in
  badplatform) echo "npm error code EBADPLATFORM" >&2; echo "npm error notsup Unsupported platform for fake@1.0.0" >&2; exit 1;;
  notfound) echo "npm error code E404" >&2; exit 1;;
  hang) echo $$ > "$FAKE_NPM_LOG.pid"; exec sleep 30;;
esac
mkdir -p "$prefix/node_modules/fake" "$prefix/node_modules/.bin"
echo '{"name":"fake","version":"1.0.0","main":"index.js","optionalDependencies":{"fake-linux-arm64-gnu":"1.0.0","fake-linux-x64-gnu":"1.0.0","fake-darwin-arm64":"1.0.0"}}' > "$prefix/node_modules/fake/package.json"
echo 'module.exports = require("fake-linux-arm64-gnu");' > "$prefix/node_modules/fake/index.js"
echo 'unused' > "$prefix/node_modules/fake/unused.js"
echo '{}' > "$prefix/node_modules/.package-lock.json"
if [ "$FAKE_NPM_MODE" = "install" ]; then
  mkdir -p "$prefix/node_modules/fake-linux-arm64-gnu"
  echo '{"name":"fake-linux-arm64-gnu","version":"1.0.0","main":"fake.node","os":["linux"],"cpu":["arm64"]}' > "$prefix/node_modules/fake-linux-arm64-gnu/package.json"
  cp "$FAKE_NPM_BINARY" "$prefix/node_modules/fake-linux-arm64-gnu/fake.node"
fi
exit 0
`;

let t: TempTree;
let log: string;

/** Puts the stand-in npm (or, with `npm: false`, no npm at all) first on the PATH. */
function useNpm(mode: string, options: { npm?: boolean; binary?: Uint8Array } = {}): void {
  const bin = t.mkdir(`bin-${mode}`);
  if (options.npm !== false) {
    writeFileSync(join(bin, "npm"), FAKE_NPM);
    chmodSync(join(bin, "npm"), 0o755);
  }
  writeFileSync(t.path("binary.node"), options.binary ?? ARM64_GLIBC);
  // Without the stand-in, the PATH holds no npm at all: any call would fail.
  vi.stubEnv("PATH", options.npm === false ? bin : `${bin}:/usr/bin:/bin`);
  vi.stubEnv("FAKE_NPM_MODE", mode);
  vi.stubEnv("FAKE_NPM_LOG", log);
  vi.stubEnv("FAKE_NPM_BINARY", t.path("binary.node"));
}

const npmCalls = (): string[] => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
const fake = [{ name: "fake", version: "1.0.0", includeFiles: true }];

beforeEach(() => {
  t = createTempTree({ "project/node_modules/fake/package.json": JSON.stringify({ name: "fake", version: "1.0.0" }) });
  log = t.path("npm.log");
});
afterEach(() => {
  vi.unstubAllEnvs();
  t.remove();
});


/** Polls `probe` every 50 ms until `accept` holds (the test's own timeout bounds it). */
async function eventually<T>(probe: () => T, accept: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = probe();
    if (accept(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a reaper of process group `pgid` is running (its command line ends with the group). */
function reaperOf(pgid: number): boolean {
  return readdirSync("/proc").some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter((arg) => arg !== "");
      return args.includes("svc-reaper") && args.at(-1) === String(pgid);
    } catch {
      return false; // the process ended while the list was read
    }
  });
}

async function stagingError(promise: Promise<unknown>): Promise<StagingError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StagingError);
  return err as StagingError;
}

describe("staging: npm's failures are typed and say what to do", () => {
  it("npm missing from the PATH", async () => {
    useNpm("install", { npm: false });
    const err = await stagingError(installForRuntime(fake, t.mkdir("stage")));
    expect(err.reason).toBe("npm-missing");
    expect(err.message).toBe("npm is not installed or not on the PATH, and staging fake@1.0.0 for linux/arm64 needs it: install Node.js with npm, or set includeFiles: false for packages the runtime provides");
  });

  it("no build for the runtime (npm's EBADPLATFORM)", async () => {
    useNpm("badplatform");
    const err = await stagingError(installForRuntime(fake, t.mkdir("stage")));
    expect(err.reason).toBe("no-runtime-build");
    expect(err.message).toMatch(/^fake@1\.0\.0 has no build for linux\/arm64\/glibc \(npm: EBADPLATFORM\): use a version or a package that publishes one/);
    expect(err.message).toContain("Unsupported platform for fake@1.0.0");
  });

  it("a version the registry does not serve", async () => {
    useNpm("notfound");
    const err = await stagingError(installForRuntime(fake, t.mkdir("stage")));
    expect(err.reason).toBe("npm-failed");
    expect(err.message).toMatch(/^npm cannot find fake@1\.0\.0 in the registry/);
  });

  it("an npm that never ends is stopped at the time limit, and its process is gone", async () => {
    useNpm("hang");
    const err = await stagingError(installForRuntime(fake, t.mkdir("stage"), 300));
    expect(err.reason).toBe("npm-timeout");
    expect(err.message).toBe("npm install of fake@1.0.0 for linux/arm64 did not finish within 0 s (stopped): check the network and the registry, then retry");
    const pid = Number(readFileSync(`${log}.pid`, "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("an npm still running when svc is killed with SIGKILL is stopped by its reaper", async () => {
    useNpm("hang");
    // svc staging in a process of its own, killed without a chance to clean up.
    const module = pathToFileURL(join(import.meta.dirname, "../../../src/bundle/external-packages-stage.ts")).href;
    const script = `const { installForRuntime } = await import(${JSON.stringify(module)}); await installForRuntime(${JSON.stringify(fake)}, ${JSON.stringify(t.mkdir("stage"))});`;
    const svc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: "ignore", env: process.env });
    try {
      const pid = await eventually(() => (existsSync(`${log}.pid`) ? Number(readFileSync(`${log}.pid`, "utf8")) : 0), (found) => found > 0);
      expect(isAlive(pid)).toBe(true);
      // svc starts the reaper just after npm: on a busy machine npm can write its pid first.
      await eventually(() => reaperOf(pid), (found) => found);
      svc.kill("SIGKILL");
      // The stand-in sleeps 30 s; its reaper stops it as soon as svc's end closes the pipe.
      await eventually(() => isAlive(pid), (alive) => !alive);
    } finally {
      svc.kill("SIGKILL");
    }
  }, 20_000);

  it("runs npm with the exact staging arguments, once per distinct set of packages", async () => {
    useNpm("install");
    const stager = new PackageStager(undefined);
    const [a, b] = await Promise.all([stager.stage(fake), stager.stage([...fake, { name: "other", version: "", includeFiles: false }])]);
    expect(a).toBe(b);
    expect(npmCalls()).toHaveLength(1);
    expect(npmCalls()[0]).toMatch(/^install fake@1\.0\.0 --os=linux --cpu=arm64 --libc=glibc --ignore-scripts --no-audit --no-fund --no-package-lock --prefix=\S+ --global=false --save=false$/);
  });
});

describe("staging: what ships", () => {
  it("the traced entry and the runtime's platform package, never npm's bookkeeping or untraced files", async () => {
    useNpm("install");
    const files = await new PackageStager(undefined).stage(fake);
    expect([...files.keys()].sort()).toEqual([
      "node_modules/fake-linux-arm64-gnu/fake.node",
      "node_modules/fake-linux-arm64-gnu/package.json",
      "node_modules/fake/index.js",
      "node_modules/fake/package.json",
    ]);
    expect(files.get("node_modules/fake-linux-arm64-gnu/fake.node")).toEqual(ARM64_GLIBC);
  });

  it("refuses a foreign binary, naming the file", async () => {
    useNpm("install", { binary: X86_64 });
    const err = await stagingError(new PackageStager(undefined).stage(fake));
    expect(err.reason).toBe("foreign-binary");
    expect(err.message).toBe(
      "the platform runs linux/arm64 with glibc, but node_modules/fake-linux-arm64-gnu/fake.node is built for x86-64, not AArch64 (arm64): use a package that publishes a linux-arm64-gnu build (install scripts never run, so nothing is compiled)",
    );
  });

  it("refuses a package whose platform builds include none for linux/arm64/glibc", async () => {
    useNpm("noarm");
    const err = await stagingError(new PackageStager(undefined).stage(fake));
    expect(err.reason).toBe("no-runtime-build");
    expect(err.message).toBe("fake@1.0.0 publishes builds for 3 platforms but none for linux/arm64/glibc: use a version that publishes one, or set includeFiles: false if the runtime provides it");
  });
});

describe("staging: the cache", () => {
  it("keeps staged files in the cache directory by name and version: a warm cache never runs npm", async () => {
    const cacheDir = t.path("cache");
    useNpm("install");
    const cold = await new PackageStager(cacheDir).stage(fake);
    expect(npmCalls()).toHaveLength(1);
    useNpm("warm", { npm: false });
    const warm = await new PackageStager(cacheDir).stage(fake);
    expect(warm).toEqual(cold);
    expect(npmCalls()).toHaveLength(1);
  });

  it("stages again when the cached archive was altered", async () => {
    const cacheDir = t.path("cache");
    useNpm("install");
    await new PackageStager(cacheDir).stage(fake);
    const zip = readdirSync(join(cacheDir, "v1")).find((f) => f.endsWith(".zip")) ?? "";
    writeFileSync(join(cacheDir, "v1", zip), "tampered");
    await new PackageStager(cacheDir).stage(fake);
    expect(npmCalls()).toHaveLength(2);
  });
});

describe("bundling a function with externalPackages", () => {
  function fn(externalPackages: ResolvedFunction["externalPackages"]): ResolvedFunction {
    mkdirSync(t.path("project/fn"), { recursive: true });
    writeFileSync(t.path("project/fn/index.ts"), 'import fake from "fake";\nimport sub from "fake/sub";\nexport default () => new Response(String(fake) + String(sub));\n');
    return { slug: "api", name: "Api", sourcePath: t.path("project/fn"), env: {}, runtime: "nodejs24", bundler: "esbuild", sourcemap: false, customDomains: [], ...(externalPackages ? { externalPackages } : {}) };
  }

  it("leaves the package and its subpaths external and ships the staged files beside index.mjs", async () => {
    useNpm("install");
    const archive = (await bundleFunctions([fn([{ name: "fake", includeFiles: true }])], { workingDir: t.path("project") })).get("api");
    const zip = await JSZip.loadAsync(archive === undefined ? new Uint8Array() : await readArchiveBytes(archive));
    expect(Object.keys(zip.files).sort()).toEqual(["index.mjs", "node_modules/fake-linux-arm64-gnu/fake.node", "node_modules/fake-linux-arm64-gnu/package.json", "node_modules/fake/index.js", "node_modules/fake/package.json"]);
    const code = (await zip.file("index.mjs")?.async("string")) ?? "";
    expect(code).toMatch(/from"fake"/);
    expect(code).toMatch(/from"fake\/sub"/);
  });

  it("with a warm cache builds the same archive without npm", async () => {
    const cacheDir = t.path("project/node_modules/.cache/svc-config");
    useNpm("install");
    const cold = (await bundleFunctions([fn([{ name: "fake", includeFiles: true }])], { workingDir: t.path("project"), cacheDir })).get("api");
    useNpm("warm", { npm: false });
    const warm = (await bundleFunctions([fn([{ name: "fake", includeFiles: true }])], { workingDir: t.path("project"), cacheDir })).get("api");
    expect(warm?.zipSha256).toBe(cold?.zipSha256);
    expect(npmCalls()).toHaveLength(1);
  });

  it("includeFiles: false and stageExternalPackages: false only mark the package external", async () => {
    useNpm("install", { npm: false });
    for (const [packages, options] of [
      [[{ name: "fake", includeFiles: false }], {}],
      [[{ name: "fake", includeFiles: true }], { stageExternalPackages: false }],
    ] as const) {
      const archive = (await bundleFunctions([fn([...packages])], { workingDir: t.path("project"), ...options })).get("api");
      const zip = await JSZip.loadAsync(archive === undefined ? new Uint8Array() : await readArchiveBytes(archive));
      expect(Object.keys(zip.files)).toEqual(["index.mjs"]);
    }
  });

  it("fails naming the function when a package is not installed in the project, before running npm", async () => {
    useNpm("install");
    const err = await bundleFunctions([fn([{ name: "absent", includeFiles: true }])], { workingDir: t.path("project") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BundleError);
    expect((err as BundleError).failures).toEqual([
      expect.objectContaining({ slug: "api", reason: "not-installed", message: expect.stringMatching(/^external package absent is not installed in the project .*: run npm install absent/) }),
    ]);
    expect(npmCalls()).toEqual([]);
  });

  it("reports a staging failure as the function's bundle failure with its reason", async () => {
    useNpm("badplatform");
    const err = await bundleFunctions([fn([{ name: "fake", includeFiles: true }])], { workingDir: t.path("project") }).catch((e: unknown) => e);
    expect((err as BundleError).failures[0]).toEqual(expect.objectContaining({ slug: "api", reason: "no-runtime-build" }));
    expect((err as BundleError).message).toContain("function api: fake@1.0.0 has no build for linux/arm64/glibc");
  });
});
