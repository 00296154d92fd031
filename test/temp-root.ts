/**
 * Vitest global setup: every test file's temporary files go under one directory made for the run
 * (`TMPDIR`, which `os.tmpdir()` and child processes read), removed when the run ends, so a run
 * leaves nothing in the system's temporary directory however a test exits. Its mode is the one
 * of `/tmp` (1777: anyone may create, only the owner removes) because some rows run a child as
 * another user, whose tools (tsx) make their own directories in `TMPDIR`.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "svc-test-run-"));
  chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
