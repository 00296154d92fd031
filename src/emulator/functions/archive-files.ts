/**
 * Writes a deployment's archive to disk for its function process, safely: every raw entry name
 * goes through the shared ZIP rules (no absolute path, backslash, drive letter, `..`, `.` or
 * empty segment, control character), symlink entries are refused, the entry count and the bytes
 * written are capped while decompressing (declared sizes are not trusted), and files are created
 * with `wx` in a directory this module just made, so nothing outside it can be reached or
 * overwritten. The names of every record are read from the bytes first, as at upload
 * (`engine/archive-directory.ts`: one name per entry, each once). The deployment route applies the
 * same rules at upload; this is the second guard for archives that came from an edited data dir or
 * seed. Messages are ours, never jszip's.
 */
import { createHash } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import JSZip from "jszip";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { ZIP_ENTRY_NAME_ISSUE_MESSAGES, ZIP_ROOT_ENTRIES, isSymlinkMode, zipEntryNameIssue } from "../../rules/zip-entries.js";
import { RECORDS_UNREADABLE, directoryRefusal, entryUndecompressable, notValidZip, readArchiveDirectory } from "../engine/archive-directory.js";
import { inspectArchive } from "../engine/archives.js";

/** Limits of an extraction. */
export interface ExtractLimits {
  entries: number;
  unzippedBytes: number;
}

/** Why an archive could not be written out; the message names the entry. */
export class ArchiveExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveExtractError";
  }
}

/**
 * Checks a stored archive before it is extracted to run: its bytes must be the ones deployed
 * (`sha256`, the deployment's digest: a blob edited in the data dir is refused, never run), and it
 * must pass the upload's inspection under the limits in force now. The inspection is remembered by
 * digest, so within one process an uploaded archive is not inspected twice; after a restart it is
 * inspected again. Throws an {@link ArchiveExtractError} saying why.
 */
export async function checkStoredArchive(bytes: Uint8Array, sha256: string, limits: ExtractLimits): Promise<void> {
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== sha256) {
    throw new ArchiveExtractError(`the stored archive is not the one deployed (SHA-256 ${actual.slice(0, 12)}…, deployed ${sha256.slice(0, 12)}…): the emulator's data was changed outside it; deploy again`);
  }
  const inspection = await inspectArchive(bytes, { zipEntries: limits.entries, unzippedBytes: limits.unzippedBytes });
  if (inspection.kind !== "accepted") throw new ArchiveExtractError(inspection.message);
  if (inspection.buildError !== null) throw new ArchiveExtractError(inspection.buildError);
}

/**
 * Extracts `bytes` into `dir`, which must not exist yet (it is created, with its parents), and
 * returns the entry module's path (`index.mjs`, else `index.js`). On any refusal the directory is
 * removed and an {@link ArchiveExtractError} says why.
 */
export async function extractArchive(bytes: Uint8Array, dir: string, limits: ExtractLimits): Promise<string> {
  await mkdir(join(dir, ".."), { recursive: true });
  // Not recursive: an existing directory (or a symlink planted in its place) is an error, never reused.
  await mkdir(dir, { mode: 0o700 });
  try {
    return await writeEntries(bytes, dir, limits);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function writeEntries(bytes: Uint8Array, dir: string, limits: ExtractLimits): Promise<string> {
  const directory = readArchiveDirectory(bytes);
  if (directory.kind === "unreadable") throw new ArchiveExtractError(notValidZip(directory.reason));
  const refusal = directoryRefusal(directory.entries, limits.entries);
  if (refusal !== null) throw new ArchiveExtractError(refusal.message);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new ArchiveExtractError(notValidZip(RECORDS_UNREADABLE));
  }
  const entries = Object.values(zip.files);
  if (entries.length > limits.entries) throw new ArchiveExtractError(`the archive has ${entries.length} entries (limit ${limits.entries})`);
  const made = new Set<string>([""]);
  let total = 0;
  for (const entry of entries) {
    // jszip strips "../" from `name`; the raw name is what a naive extractor would write.
    const raw = entry.unsafeOriginalName ?? entry.name;
    const shown = escapeUnsafeText(raw.slice(0, 200));
    const issue = zipEntryNameIssue(raw, { directory: entry.dir });
    if (issue !== null) throw new ArchiveExtractError(`archive entry "${shown}" is unsafe: ${ZIP_ENTRY_NAME_ISSUE_MESSAGES[issue]}`);
    if (typeof entry.unixPermissions === "number" && isSymlinkMode(entry.unixPermissions)) throw new ArchiveExtractError(`archive entry "${shown}" is a symbolic link; archives must contain regular files only`);
    const path = raw.replace(/\/$/, "");
    const segments = path.split("/");
    const parents = entry.dir ? segments : segments.slice(0, -1);
    for (let i = 1; i <= parents.length; i++) {
      const sub = parents.slice(0, i).join("/");
      if (made.has(sub)) continue;
      await mkdir(join(dir, ...parents.slice(0, i)), { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
      });
      made.add(sub);
    }
    if (entry.dir) continue;
    let data: Uint8Array;
    try {
      data = await entry.async("uint8array");
    } catch {
      throw new ArchiveExtractError(notValidZip(entryUndecompressable(raw)));
    }
    total += data.byteLength;
    if (total > limits.unzippedBytes) throw new ArchiveExtractError(`the archive expands to more than ${limits.unzippedBytes} bytes`);
    // `wx`: a name written twice (or a file where a directory was made) fails instead of overwriting.
    await writeFile(join(dir, ...segments), data, { flag: "wx", mode: 0o600 }).catch((err: NodeJS.ErrnoException) => {
      throw new ArchiveExtractError(`archive entry "${shown}" cannot be written (${err.code ?? err.message}): the archive names it twice or under a file`);
    });
  }
  const entry = ZIP_ROOT_ENTRIES.find((name) => entries.some((e) => !e.dir && (e.unsafeOriginalName ?? e.name) === name));
  if (entry === undefined) throw new ArchiveExtractError("no index.mjs or index.js at the archive root");
  return join(dir, entry);
}
