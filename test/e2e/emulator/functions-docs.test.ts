/**
 * docs/dev.md's "Deployed functions in the emulator", run as written in bash: its svc.ts and the
 * hello function of the same page, applied to `svc emulator` (the built bin, through an `npx`
 * shim), called with curl, and a clock move that fires the schedule twice.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, emptyDir, ensureBuilt, npxShim, runProcess } from "../cli/harness.js";

const DOC = readFileSync(join(ROOT, "docs", "dev.md"), "utf8");
const SECTION = DOC.slice(DOC.indexOf("## Deployed functions in the emulator"));

/** The first code block of `lang` in `text`. */
function block(lang: "ts" | "sh", text: string): string {
  return new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1] ?? "";
}

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

describe("docs/dev.md, deployed functions in the emulator", () => {
  it("deploys, calls the function and lists a call and two schedule runs, as written", async () => {
    const app = emptyDir();
    writeFileSync(join(app, "svc.ts"), block("ts", SECTION));
    mkdirSync(join(app, "functions", "hello"), { recursive: true });
    writeFileSync(join(app, "functions", "hello", "index.ts"), block("ts", DOC.slice(DOC.indexOf("```ts\n// functions/hello/index.ts"))));
    const commands = block("sh", SECTION.slice(SECTION.indexOf("<!-- emulator-functions-snippet -->")));
    expect(commands).toContain("__emulator/invocations");
    // Should a command fail, the background emulator is stopped too (it holds the output pipes).
    const run = await runProcess("bash", ["-e", "-c", `trap 'kill $(jobs -p) 2>/dev/null' EXIT\n${commands}`], { cwd: app, env: { PATH: npxShim() } });
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").filter((l) => l !== "" && !l.startsWith("Plan") && !l.includes("Apply complete")).slice(-4)).toEqual(["hello ada", "hello http 200", "hello every-minute 200", "hello every-minute 200"]);
  }, 180_000);
});
