import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, emptyDir, ensureBuilt, npxShim, runProcess } from "./harness.js";

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

describe("npm run demo", () => {
  it("says what it will do first and what to try next at the end, and the next steps work as written", async () => {
    const demo = await runProcess(process.execPath, [join(ROOT, "examples", "demo.mjs")], { cwd: ROOT, env: {} });
    expect(demo.code).toBe(0);
    const [first = ""] = demo.stdout.split("\n");
    expect(first).toMatch(/^This demo starts a local emulator of the platform \(no account, no network\), then plans examples\/basic\/svc\.ts,$/);
    const next = demo.stdout.slice(demo.stdout.indexOf("\nNext, with your own svc.ts"));
    expect(next).toMatch(/\nSee docs\/cli\.md and docs\/policy\.md in the package for every command and every svc\.ts key\.\n$/);

    const commands = next.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.slice(2)).join("\n");
    expect(commands).toContain("npx svc config init");
    expect(commands).toContain("npx svc emulator --port 0 --real-databases");
    const app = emptyDir();
    // While the emulator runs, the DATABASE_URL the steps wrote connects.
    const connect = `psql "$(grep '^DATABASE_URL=' .env.local | cut -d= -f2-)" -tAc "SELECT 'connected'"`;
    const run = await runProcess("bash", ["-e", "-c", commands.replace(/^kill %1 /m, `${connect}\nkill %1 `)], { cwd: app, env: { PATH: npxShim() } });
    expect(run.stdout).toContain("Apply complete: 1 created");
    expect(run.stdout).toContain("\nconnected\n");
    expect(run.code, run.stderr).toBe(0);
  }, 180_000);
});

/** The first ```sh block after `marker` in a shipped document. */
function snippet(file: string, marker: string): string {
  const text = readFileSync(join(ROOT, file), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker)));
  return block?.[1] ?? "";
}

describe("documented emulator snippets, run as written in bash", () => {
  it.each([
    ["docs/emulator.md", "<!-- emulator-env-snippet -->", "Plan: "],
    ["README.md", "## Try it locally", "Hello, you!"],
  ])("%s", async (file, marker, expected) => {
    const commands = snippet(file, marker);
    expect(commands).toContain("--env .env.emulator");
    const app = emptyDir();
    // The emulator snippet plans an existing policy; the README one scaffolds its own.
    if (!commands.includes("config init")) writeFileSync(join(app, "svc.ts"), 'import { defineConfig } from "svc-config/v1";\nexport default defineConfig({ buckets: { uploads: {} } });\n');
    const run = await runProcess("bash", ["-e", "-c", commands], { cwd: app, env: { PATH: npxShim() } });
    expect(run.stdout).toContain(expected);
    expect(run.code).toBe(0);
  }, 120_000);
});
