import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/io.js";
import { main } from "../../../src/cli/main.js";

const WORKFLOW = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "ci", "svc.yml"), "utf8");

/** Every `npx svc …` command of the workflow, with shell and Actions expressions replaced. */
function workflowCommands(): string[][] {
  return [...WORKFLOW.matchAll(/npx svc ([^\n>]+)/g)].map((m) =>
    (m[1] ?? "")
      .replace(/"\$PREVIEW"|"pr-\$\{\{[^}]+\}\}"/g, "pr-1")
      .trim()
      .split(/\s+/),
  );
}

function quietIo(): CliIo & { errText: () => string } {
  let err = "";
  return {
    stdout: { write: () => true },
    stderr: { write: (t: string) => (err += t) },
    stdin: new PassThrough(),
    env: {},
    cwd: "/",
    now: () => 0,
    errText: () => err,
  };
}

describe("the GitHub Actions workflow", () => {
  const commands = workflowCommands();

  it("runs the plan, apply, validate and preview commands the guide describes", () => {
    expect(commands.map((c) => c.slice(0, 2).join(" "))).toEqual([
      "config validate", "config plan", "branch create", "branch connection-string", "branch delete", "config plan", "config apply",
    ]);
  });

  it.each(commands.map((c) => [c.join(" "), c] as const))("uses only flags svc accepts: svc %s", async (_name, argv) => {
    const io = quietIo();
    const code = await main(argv, { io, signal: new AbortController().signal, loadEngine: () => Promise.reject(new Error("parsed")) });
    // Parsing succeeded when the run got as far as the engine (or, for apply, the plan file).
    expect(io.errText()).not.toContain("CLI_USAGE");
    expect(io.errText()).toMatch(/Unexpected error: parsed|CLI_PLAN_UNREADABLE/);
    expect(code).not.toBe(0);
  });
});
