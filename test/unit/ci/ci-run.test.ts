import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTempTree } from "../../helpers/temp-dir.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/**
 * Runs the real `.ci/run` from a copy of it, on a PATH that holds only the shell tools it uses
 * plus stand-ins for `id` (root), `apt-get` (hundreds of lines of noise; `psql`'s package fails)
 * and `npm` (writes a vitest JSON report), so no package is installed and no test suite runs.
 */
function runCi(options: { installFails: boolean } = { installFails: true }): { output: string; status: number | null; tmp: string } {
  const tree = createTempTree({ ".ci/": "", "bin/": "" });
  afterAll(() => tree.remove());
  copyFileSync(join(ROOT, ".ci", "run"), tree.path(".ci/run"));
  const bin = tree.path("bin");
  for (const tool of ["bash", "dirname", "mktemp", "tail", "sed", "rm", "cat"]) {
    symlinkSync(execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(bin, tool));
  }
  symlinkSync(process.execPath, join(bin, "node"));
  const stub = (name: string, body: string): void => {
    writeFileSync(join(bin, name), `#!${join(bin, "bash")}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  stub("id", "echo 0");
  stub(
    "apt-get",
    'for i in $(seq 1 300); do echo "Get:$i http://deb.example/debian bookworm/main $*"; done 2>/dev/null || true\n' +
      (options.installFails ? 'case "$*" in *postgresql-client*) echo "E: Unable to locate package postgresql-client"; exit 100;; esac' : "exit 0"),
  );
  stub("seq", 'i=$1; while [ "$i" -le "$2" ]; do echo "$i"; i=$((i+1)); done');
  stub(
    "npm",
    'case "$1" in ci) exit 0;; test) for a in "$@"; do case "$a" in --outputFile.json=*) out="${a#--outputFile.json=}";; esac; done\n' +
      '  echo \'{"numPassedTests":7,"numFailedTests":0,"numPendingTests":0,"numTodoTests":0}\' > "$out"; exit 0;; esac',
  );
  mkdirSync(tree.path("tmp"));
  const run = spawnSync(join(bin, "bash"), [tree.path(".ci/run")], {
    env: { PATH: bin, TMPDIR: tree.path("tmp"), HOME: tree.root },
    encoding: "utf8",
  });
  return { output: `${run.stderr}${run.stdout}`, status: run.status, tmp: tree.path("tmp") };
}

describe(".ci/run", () => {
  const { output, status, tmp } = runCi();
  const clean = runCi({ installFails: false });
  const lines = output.trimEnd().split("\n");

  it("keeps apt's output out of the console: one line per package set", () => {
    expect(output).not.toContain("Get:1 ");
    expect(lines).toContain("apt-get update ... done");
    expect(lines).toContain("apt-get install chromium ... done");
  });

  it("prints the log's tail when an install fails, and carries on", () => {
    expect(output).toMatch(/^apt-get install postgresql-client \.\.\. failed \(full log: \S+\); its last lines:$/m);
    expect(output).toContain("  | E: Unable to locate package postgresql-client");
    expect(output).toContain("warning: postgresql-client is missing; the tests that need it will fail");
    expect(lines.filter((l) => l.startsWith("  | ")).length).toBeLessThanOrEqual(20);
  });

  it("still ends with the plain counts line", () => {
    expect(lines.at(-1)).toBe("7 passed, 0 failed");
    expect(status).toBe(0);
  });

  it("keeps the apt log a failure names, and leaves none behind when every step succeeded", () => {
    const named = /full log: (\S+)\)/.exec(output)?.[1] ?? "";
    expect(readdirSync(tmp).map((name) => join(tmp, name))).toEqual([named]);
    expect(clean.output).toContain("apt-get install postgresql-client ... done");
    expect(readdirSync(clean.tmp)).toEqual([]);
  });
});
