/**
 * The plans docs/cli.md and docs/verify.md show are what svc prints: each sample's command runs
 * against the emulator on fixtures/cli/project (the project those samples plan), and the page's
 * output and exit code must be the real ones, deployment digests aside.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, useEmulatorProject } from "./harness.js";

const project = useEmulatorProject();

/** The output a page shows under `$ <command>` in a fenced block, and the `echo $?` after it if any. */
function sampleOf(doc: string, command: string): { output: string; code: number | undefined } {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const start = text.indexOf(`\n$ ${command}\n`);
  expect(start, `${doc} shows \`$ ${command}\``).toBeGreaterThan(-1);
  const lines = text.slice(start + command.length + 4).split("\n");
  const end = lines.findIndex((line) => line.startsWith("$ ") || line.startsWith("```"));
  const code = lines[end] === "$ echo $?" ? Number(lines[end + 1]) : undefined;
  return { output: `${lines.slice(0, end).join("\n")}\n`, code };
}

/** A deployment's code digest depends on the bundler's build, a compute id on the emulator's run: compared as their shapes. */
const masked = (text: string): string => text.replace(/"[0-9A-F]{20}"/g, '"<digest>"').replace(/\bep-[a-z]+-[a-z]+-\d+\b/g, "ep-<id>");

describe("plan samples in the user documents", () => {
  it.each([
    ["docs/cli.md", "svc config plan --target trigger.hourly --detailed-exitcode"],
    ["docs/verify.md", "svc config plan --verify"],
  ])("%s: `%s` prints what the page shows", async (doc, command) => {
    const sample = sampleOf(doc, command);
    const run = await project.svc(command.split(" ").slice(1));
    expect(masked(run.stdout)).toBe(masked(sample.output));
    if (sample.code !== undefined) expect(run.code).toBe(sample.code);
  });
});
