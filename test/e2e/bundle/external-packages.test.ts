/**
 * externalPackages with a real registry package: @node-rs/argon2 ships its binaries as napi-rs
 * platform packages. The project has the host's build installed; the deployed archive holds the
 * linux-arm64-gnu build and not the host's, the emulator accepts it over real HTTP, and a warm
 * cache plans with no npm on the PATH. Needs the npm registry (fails saying so when absent).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foreignBinaryIssue } from "../../../src/bundle/external-packages-binaries.js";
import { createTempTree } from "../../helpers/temp-dir.js";
import { NATIVE_PACKAGE, installNativePackage, registryEnv, requireNpmRegistry } from "../../helpers/npm-registry.js";
import { emulatorEnv, runSvc, useEmulatorProject } from "../cli/harness.js";

const { emu } = useEmulatorProject();
const project = createTempTree({
  ".git/": "",
  "package.json": JSON.stringify({ name: "native-app", private: true, type: "module" }),
  "functions/auth/index.ts": `import { hash, verify } from "${NATIVE_PACKAGE.name}";\nexport default async () => new Response(String(await verify(await hash("pw"), "pw")));\n`,
  "svc.ts": `export default { functions: { auth: { name: "Auth", source: "./functions/auth", externalPackages: ["${NATIVE_PACKAGE.name}"] } } };\n`,
});

/** The archive with digest `zipSha256` from the project's bundle cache (each entry: its record's JSON line, then the archive). */
function cachedArchive(zipSha256: string): Buffer {
  const dir = project.path("node_modules/.cache/svc-config/v2");
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    const zip = bytes.subarray(bytes.indexOf(0x0a) + 1);
    if (createHash("sha256").update(zip).digest("hex") === zipSha256) return zip;
  }
  throw new Error(`the bundle cache holds no archive with digest ${zipSha256}`);
}

beforeAll(async () => {
  await requireNpmRegistry();
  await installNativePackage(project.root);
}, 360_000);
afterAll(() => project.remove());

describe("externalPackages with a napi-rs package from the registry", () => {
  it("deploys the linux-arm64-gnu build, never the host's, and the emulator accepts it", async () => {
    const env = { ...registryEnv(), ...emulatorEnv(emu()) };
    const apply = await runSvc(["config", "apply", "--yes"], { cwd: project.root, env });
    expect(apply.stderr + apply.stdout).not.toContain("error");
    expect(apply.code).toBe(0);

    const plan = await runSvc(["config", "plan", "--out", "plan.json", "--detailed-exitcode"], { cwd: project.root, env });
    expect(plan.code).toBe(0);
    const { bundles } = JSON.parse(readFileSync(project.path("plan.json"), "utf8")) as { bundles: Record<string, { zipSha256: string }> };
    const zip = await JSZip.loadAsync(cachedArchive(bundles.auth?.zipSha256 ?? ""));
    const names = Object.keys(zip.files).sort();
    expect(names).toContain(`node_modules/${NATIVE_PACKAGE.name}/index.js`);
    expect(names).toContain(`node_modules/${NATIVE_PACKAGE.arm64Package}/argon2.linux-arm64-gnu.node`);
    expect(names.filter((n) => n.includes(NATIVE_PACKAGE.hostPackage))).toEqual([]);
    const binary = await zip.file(`node_modules/${NATIVE_PACKAGE.arm64Package}/argon2.linux-arm64-gnu.node`)?.async("uint8array");
    expect(foreignBinaryIssue("argon2.linux-arm64-gnu.node", binary ?? new Uint8Array())).toBeNull();
    expect(await zip.file("index.mjs")?.async("string")).toContain(`"${NATIVE_PACKAGE.name}"`);
  }, 300_000);

  it("plans from a warm cache with no npm on the PATH", async () => {
    const noNpm = project.mkdir("bin-without-npm");
    const run = await runSvc(["config", "plan", "--detailed-exitcode"], { cwd: project.root, env: { ...emulatorEnv(emu()), PATH: noNpm } });
    expect(run.stderr).not.toContain("npm is not installed");
    expect(run.code).toBe(0);
  }, 120_000);

  it("without the key, fails the bundle naming the package to declare", async () => {
    const dir = project.mkdir("undeclared");
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, "svc.ts"), 'export default { functions: { auth: { name: "Auth", source: "../functions/auth" } } };\n');
    const run = await runSvc(["config", "validate", "--allow-external-sources"], { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`add "${NATIVE_PACKAGE.name}" to the function's externalPackages`);
  }, 120_000);
});
