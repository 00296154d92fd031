/**
 * Bundle cache entries the user cannot read, in a directory the user cannot write, and an entry
 * made unreadable between the plan and the upload. File modes do not stop root, so when the tests
 * run as root the steps run in a child process as `nobody` (`setpriv`); otherwise as the user.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

const CHILD = fileURLToPath(new URL("../../helpers/cache-permissions-child.ts", import.meta.url));
const NOBODY = 65534;

let tree: TempTree | undefined;
afterEach(() => tree?.remove());

interface ChildReport {
  uid: number;
  entryFiles: number;
  cold: Record<string, string>;
  unreadable: Record<string, string>;
  rewrittenReadable: boolean[];
  unwritable: Record<string, string>;
  refusals: string[];
}

/** Runs the child over `dir`, as `nobody` when this process is root. */
function runChild(dir: string): ChildReport {
  const node = [process.execPath, "--import", "tsx", CHILD, dir];
  const root = process.getuid?.() === 0;
  const [command, ...args] = root ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...node] : node;
  const out = execFileSync(command ?? "", args, { encoding: "utf8", env: { ...process.env, HOME: dir }, cwd: fileURLToPath(new URL("../../..", import.meta.url)) });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as ChildReport;
}

describe("bundle cache entries without permission", () => {
  it("rebuilds an unreadable entry in its place, holds the archive when the directory is not writable, and refuses an upload whose entry became unreadable, naming each function", () => {
    tree = createTempTree({ "package.json": JSON.stringify({ name: "app", type: "module" }), "shared/index.ts": "export default () => new Response('shared');\n" });
    if (process.getuid?.() === 0) {
      for (const path of [tree.root, tree.path("package.json"), tree.path("shared"), tree.path("shared/index.ts")]) chownSync(path, NOBODY, NOBODY);
      chmodSync(tree.root, 0o755);
    }
    const report = runChild(tree.root);

    expect(report.uid).not.toBe(0);
    // Two functions built from one source share one entry.
    expect(report.entryFiles).toBe(1);
    const digest = report.cold.first?.split(" ")[1];
    expect(report.cold).toEqual({ first: `cache-entry ${digest}`, second: `cache-entry ${digest}` });
    expect(report.unreadable).toEqual(report.cold);
    expect(report.rewrittenReadable).toEqual([true]);
    expect(report.unwritable).toEqual({ first: `held ${digest}`, second: `held ${digest}` });
    expect(report.refusals).toEqual(["first: unreadable: EACCES", "second: unreadable: EACCES"]);
  });
});
