/**
 * Vitest global setup: every test file's temporary files go under one directory made for the run
 * (`TMPDIR`, which `os.tmpdir()` and child processes read), removed when the run ends, so a run
 * leaves nothing in the system's temporary directory however a test exits. Readable by others
 * (0755) because some rows run a child as another user inside a directory they hand to it.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "svc-test-run-"));
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
