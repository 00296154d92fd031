/**
 * What a fresh process loads before it does anything: `svc --version` and `svc --help` load the
 * command parser, not the commands, the engine or zod; importing `svc-config/v1` loads what
 * declaring and resolving a policy need, not the engine's operations, the bundler or the loader,
 * which load with their first call. Checked on the built package with a module-loading hook that
 * lists every module Node loads (counts of modules, never timings). The bin loads the bundle in
 * dist/bin/, whose files `svc.modules.json` maps back to the source modules they hold.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { BIN, ROOT, ensureBuilt } from "./harness.js";

const run = promisify(execFile);
let tree: TempTree | undefined;
let register = "";

beforeAll(async () => {
  await ensureBuilt();
  tree = createTempTree();
  // Each module Node loads is written to stderr as one `LOADED <url>` line.
  const hook = tree.write("hook.mjs", 'export async function load(url, context, next) { process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n');
  register = tree.write("register.mjs", `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
}, 300_000);

afterAll(() => tree?.remove());

/** The package-relative paths of the files `stderr`'s hook lines name. */
function loadedFiles(stderr: string): string[] {
  const prefix = pathToFileURL(ROOT).href;
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED file:"))
    .map((line) => line.slice("LOADED ".length))
    .filter((url) => url.startsWith(prefix))
    .map((url) => url.slice(prefix.length + 1));
}

/** The files `args` loads under the hook, the modules in them (a bundle file stands for the source modules it holds), and its stdout. */
async function loaded(args: string[]): Promise<{ files: string[]; modules: string[]; stdout: string }> {
  const { stdout, stderr } = await run(process.execPath, ["--import", register, ...args], { cwd: ROOT });
  const files = loadedFiles(stderr);
  return { files, modules: files.flatMap((file) => bundled()[file] ?? [file]), stdout };
}

/** As {@link loaded}, for a command that fails (its output is still returned). */
async function loadedFailing(args: string[]): Promise<{ files: string[]; modules: string[]; stdout: string; stderr: string }> {
  const { stdout, stderr } = await run(process.execPath, ["--import", register, ...args], { cwd: ROOT }).then(
    () => expect.unreachable(`${args.join(" ")} succeeded`),
    (err: { stdout: string; stderr: string }) => err,
  );
  const files = loadedFiles(stderr);
  return { files, modules: files.flatMap((file) => bundled()[file] ?? [file]), stdout, stderr: stderr.split("\n").filter((line) => !line.startsWith("LOADED ")).join("\n") };
}

let manifest: Record<string, string[]> | undefined;
/** dist/bin/svc.modules.json: each bundle file and the source modules in it. */
function bundled(): Record<string, string[]> {
  manifest ??= JSON.parse(readFileSync(join(ROOT, "dist", "bin", "svc.modules.json"), "utf8")) as Record<string, string[]>;
  return manifest;
}

describe("start-up: what a fresh process loads", () => {
  it("svc --version prints the version having loaded no command, no engine and no zod", async () => {
    const { files, modules, stdout } = await loaded([BIN, "--version"]);
    expect(stdout).toMatch(/^svc-config \d+\.\d+\.\d+/);
    expect(modules).toContain("src/cli/program.ts");
    const commands = modules.filter((m) => m.startsWith("src/cli/commands/") && m !== "src/cli/commands/db-registration.ts");
    expect(commands).toEqual([]);
    expect(modules.filter((m) => m.startsWith("src/instant/") || m.startsWith("src/cli/views/error-view"))).toEqual([]);
    expect(modules.filter((m) => m === "src/v1.ts" || m.startsWith("src/engine/") || m.startsWith("node_modules/zod/"))).toEqual([]);
    // The bundle, not the compiled tree or node_modules one file at a time.
    expect(files.filter((f) => !f.startsWith("dist/bin/") && f !== "bin/svc.js")).toEqual([]);
  });

  it("svc config plan loads its command from the bundle and nothing from the compiled tree", async () => {
    const { files, modules } = await loadedFailing([BIN, "config", "plan", "--config", "no-such-policy.ts"]);
    expect(modules).toContain("src/cli/commands/plan-command.ts");
    expect(files.filter((f) => f.startsWith("dist/") && !f.startsWith("dist/bin/"))).toEqual([]);
  });

  it.each<{ flags: string[] }>([{ flags: [] }, { flags: ["--json"] }])("svc config plan $flags loads its views with the kinds' light modules, no kind's stages, until it plans", async ({ flags }) => {
    const { modules, stdout, stderr } = await loadedFailing([BIN, "config", "plan", "--config", "no-such-policy.ts", ...flags]);
    expect(`${stdout}${stderr}`).toContain("no-such-policy.ts");
    expect(modules).toContain("src/cli/views/json-plan.ts");
    expect(modules).toContain("src/kinds/list.ts");
    expect(modules.filter((m) => m === "src/kinds/modules.ts" || /^src\/kinds\/\w+\/(stages|diff|apply)\.ts$/.test(m))).toEqual([]);
  });

  it("svc config plan --help prints the plan command's flags without loading any command", async () => {
    const { modules, stdout } = await loaded([BIN, "config", "plan", "--help"]);
    expect(stdout).toContain("--verify");
    expect(modules.filter((m) => m.startsWith("src/cli/commands/") && m !== "src/cli/commands/db-registration.ts")).toEqual([]);
  });

  it("importing svc-config/v1 loads neither the engine's operations, nor the kinds' stages, nor the HTTP client, nor the bundler, nor the policy loader", async () => {
    const v1 = pathToFileURL(join(ROOT, "dist", "v1.js")).href;
    const { modules } = await loaded(["--input-type=module", "-e", `await import(${JSON.stringify(v1)})`]);
    expect(modules).toContain("dist/config/validate-static.js");
    // The registry's list of light modules loads (resolvePolicy needs the kinds' branch-tuning keys), not their stages.
    expect(modules).toContain("dist/kinds/list.js");
    const heavy = ["dist/engine/push-config.js", "dist/engine/saved-plan.js", "dist/engine/fleet.js", "dist/engine/create-branch.js", "dist/engine/inspect.js", "dist/config/load-config.js", "dist/engine/checks-load.js", "dist/bundle/build-function-bundle.js", "dist/kinds/modules.js", "dist/diff/diff-state.js", "dist/apply/execute-plan.js", "dist/engine/verify-plan.js"];
    expect(modules.filter((m) => heavy.includes(m))).toEqual([]);
    const stages = modules.filter((m) => /^dist\/kinds\/\w+\/(stages|diff|apply)\.js$/.test(m));
    expect(stages).toEqual([]);
    // zod is one file of the package (dist/vendor/zod.js), not its 95 modules.
    expect(modules).toContain("dist/vendor/zod.js");
    expect(modules.filter((m) => m.startsWith("node_modules/zod/"))).toEqual([]);
    // The HTTP client (transport, wire schemas, calls) loads with a client's first call.
    expect(modules.filter((m) => m === "dist/api/transport.js" || m === "dist/api/create-platform-api.js" || m.startsWith("dist/api/wire/"))).toEqual([]);
    expect(modules.filter((m) => m.startsWith("node_modules/esbuild/") || m.startsWith("node_modules/jiti/") || m.startsWith("node_modules/jszip/"))).toEqual([]);
  });

  it("the CLI's bundle and the library's zod hold zod's English messages only, and zod still answers in English", async () => {
    const locales = Object.values(bundled()).flat().filter((m) => m.startsWith("node_modules/zod/v4/locales/"));
    expect(new Set(locales)).toEqual(new Set(["node_modules/zod/v4/locales/index.js", "node_modules/zod/v4/locales/en.js"]));
    const zod = pathToFileURL(join(ROOT, "dist", "vendor", "zod.js")).href;
    const script = `const { z } = await import(${JSON.stringify(zod)});
console.log(JSON.stringify({ locales: Object.keys(z.locales), message: z.string().safeParse(1).error.issues[0].message }));`;
    const { stdout } = await loaded(["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ locales: ["en"], message: "Invalid input: expected string, received number" });
  });

  it("a failing command loads the error views and still names the problem and its exit code", async () => {
    const failed = await loaded([BIN, "config", "plan", "--no-such-flag"]).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("--no-such-flag");
    expect(loadedFiles(failed.stderr).flatMap((file) => bundled()[file] ?? [file])).toContain("src/cli/views/error-view.ts");
  });

  it("the first operation loads its module, and the deferred export behaves as the operation (a missing key is its typed error)", async () => {
    const v1 = pathToFileURL(join(ROOT, "dist", "v1.js")).href;
    const script = `const v1 = await import(${JSON.stringify(v1)});
try { await v1.plan(v1.defineConfig({}), { projectId: "p", branchId: "b", apiKey: "" }); } catch (err) { console.log(err.code); }`;
    const { modules, stdout } = await loaded(["--input-type=module", "-e", script]);
    expect(stdout.trim()).toBe("PLATFORM_MISSING_API_KEY");
    expect(modules).toContain("dist/engine/push-config.js");
  });
});
