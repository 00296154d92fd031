import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/io.js";
import { main } from "../../../src/cli/main.js";

/** Every `npx svc …` command of a shipped workflow, with shell and Actions expressions replaced. */
function workflowCommands(file: string): string[][] {
  const workflow = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "ci", file), "utf8");
  return [...workflow.matchAll(/npx svc ([^\n>|)]+)/g)].map((m) =>
    (m[1] ?? "")
      .replace(/"\$PREVIEW"|"pr-\$\{\{[^}]+\}\}"/g, "pr-1")
      .replace(/"\$GITHUB_HEAD_REF"/g, "feat")
      .replace(/"\$preview"/g, "preview/feat")
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

describe.each([
  ["svc.yml", ["config validate", "config plan", "branch create", "branch connection-string", "branch delete", "config plan", "config apply"]],
  ["previews.yml", ["branch sync", "branch status", "config plan", "branch cleanup", "branch cleanup"]],
])("the GitHub Actions workflow docs/ci/%s", (file, expected) => {
  const commands = workflowCommands(file);

  it("runs the commands the guide describes", () => {
    expect(commands.map((c) => c.slice(0, 2).join(" "))).toEqual(expected);
  });

  it.each(commands.map((c) => [c.join(" "), c] as const))("uses only flags svc accepts: svc %s", async (_name, argv) => {
    const io = quietIo();
    const code = await main(argv, { io, signal: new AbortController().signal, loadEngine: () => Promise.reject(new Error("parsed")) });
    // Parsing succeeded when the run got as far as the engine (or, for apply, the plan file; for status, git).
    expect(io.errText()).not.toContain("CLI_USAGE");
    expect(io.errText()).toMatch(/Unexpected error: parsed|CLI_PLAN_UNREADABLE|CLI_GIT_UNAVAILABLE|CLI_MISSING_PROJECT/);
    expect(code).not.toBe(0);
  });
});
