import { randomBytes } from "node:crypto";
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file atomically: a temporary sibling, then a rename, so readers never see half a
 * file. `mode` applies to the new file (e.g. 0o600 for saved plans and connection strings).
 */
export function writeFileAtomic(path: string, content: string, mode = 0o644): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, content, { mode });
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
