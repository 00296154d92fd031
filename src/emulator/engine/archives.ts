/**
 * Deployment archive checks, using the shared ZIP rules of `src/rules/`.
 * At upload: a plain archive (`plain-archive.ts`: what the bundler writes) is read without jszip,
 * with the same outcome; its reading implies every check of the directory's below. Any other: the
 * names of every record read from the bytes first (`archive-directory.ts`: a central
 * name and a local name that differ, a name given twice, an unsafe raw name -> 422; more records than
 * the limit -> 413); then, through jszip, symlinks -> 422, too many entries or too many bytes -> 413
 * (bytes counted as they inflate, whatever the headers declare).
 * An archive that cannot be opened or decompressed is accepted; its build fails with the reason,
 * in our words (jszip's own messages are not the platform's).
 */
import { createHash } from "node:crypto";
import JSZip from "jszip";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { ZIP_ENTRY_NAME_ISSUE_MESSAGES, hasRootEntry, isSymlinkMode, zipSlipIssue } from "../../rules/zip-entries.js";
import { RECORDS_UNREADABLE, directoryRefusal, entryUndecompressable, notValidZip, readArchiveDirectory } from "./archive-directory.js";
import { readPlainArchive } from "./plain-archive.js";

/** Archive limits the upload enforces. */
export interface ArchiveLimits {
  zipEntries: number;
  unzippedBytes: number;
}

/** Outcome of inspecting an uploaded archive. */
export type ArchiveInspection =
  | { kind: "accepted"; sha256: string; buildError: string | null }
  | { kind: "unsafe"; message: string }
  | { kind: "too-large"; message: string };

/** How many inspections {@link inspectArchive} keeps; the oldest goes first. */
const REMEMBERED = 256;
/** Inspections by SHA-256 and limits, the only inputs of the outcome; one still running is shared. */
const inspected = new Map<string, Promise<ArchiveInspection>>();

/**
 * Inspects a ZIP upload: safety and limits now, the build outcome for later. The outcome of
 * the same bytes under the same limits is remembered (the last {@link REMEMBERED}), so an
 * archive uploaded again (every branch of a fleet, every verified plan) is not unzipped again;
 * uploads of the same bytes that arrive together (the functions of one apply that share an
 * archive) wait for one inspection instead of unzipping it each.
 */
export function inspectArchive(bytes: Uint8Array, limits: ArchiveLimits): Promise<ArchiveInspection> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const key = `${sha256} ${limits.zipEntries} ${limits.unzippedBytes}`;
  const known = inspected.get(key);
  if (known !== undefined) return known;
  const outcome = inspectBytes(bytes, sha256, limits).then(
    (inspection) => Object.freeze(inspection),
    (err: unknown) => {
      inspected.delete(key);
      throw err;
    },
  );
  inspected.set(key, outcome);
  for (const oldest of inspected.keys()) {
    if (inspected.size <= REMEMBERED) break;
    inspected.delete(oldest);
  }
  return outcome;
}

const NO_ROOT_ENTRY = "no index.mjs or index.js at the archive root";

async function inspectBytes(bytes: Uint8Array, sha256: string, limits: ArchiveLimits): Promise<ArchiveInspection> {
  // A plain archive is one the directory reading reads and refuses nothing of (`plain-archive.ts`):
  // its directory is read once, there.
  const plain = readPlainArchive(bytes, limits);
  if (plain !== undefined) return { kind: "accepted", sha256, buildError: hasRootEntry(plain.names) ? null : NO_ROOT_ENTRY };
  const directory = readArchiveDirectory(bytes);
  if (directory.kind === "unreadable") return { kind: "accepted", sha256, buildError: notValidZip(directory.reason) };
  const refusal = directoryRefusal(directory.entries, limits.zipEntries);
  if (refusal !== null) return refusal;
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    return { kind: "accepted", sha256, buildError: notValidZip(RECORDS_UNREADABLE) };
  }
  const entries = Object.values(zip.files);
  for (const entry of entries) {
    // jszip strips "../" from `name`; the raw name is what an extractor would use.
    const raw = entry.unsafeOriginalName ?? entry.name;
    const issue = zipSlipIssue(raw);
    if (issue !== null) return { kind: "unsafe", message: `archive entry "${escapeUnsafeText(raw)}" is unsafe: ${ZIP_ENTRY_NAME_ISSUE_MESSAGES[issue]}; rebuild the archive with relative paths` };
    if (typeof entry.unixPermissions === "number" && isSymlinkMode(entry.unixPermissions)) {
      return { kind: "unsafe", message: `archive entry "${escapeUnsafeText(raw)}" is a symbolic link; archives must contain regular files only` };
    }
  }
  if (entries.length > limits.zipEntries) {
    return { kind: "too-large", message: `the archive has ${entries.length} entries (limit ${limits.zipEntries}); bundle into fewer files` };
  }
  let total = 0;
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.dir) continue;
    files.push(entry.name);
    let length: number | undefined;
    try {
      length = await inflatedLength(entry, limits.unzippedBytes - total);
    } catch {
      return { kind: "accepted", sha256, buildError: notValidZip(entryUndecompressable(entry.unsafeOriginalName ?? entry.name)) };
    }
    if (length === undefined) {
      return { kind: "too-large", message: `the archive expands to more than ${limits.unzippedBytes} bytes; bundle less code` };
    }
    total += length;
  }
  return { kind: "accepted", sha256, buildError: hasRootEntry(files) ? null : NO_ROOT_ENTRY };
}

/**
 * The length of `entry` decompressed, counted chunk by chunk; `undefined` as soon as it passes
 * `room`, and nothing more of it is inflated. An entry whose header understates its size (a zip
 * bomb) therefore costs at most the limit in time and holds one chunk in memory, where inflating
 * it whole before comparing took the whole expansion (1 GiB for a 1 MiB upload). Rejects with
 * jszip's own error (a damaged entry, a size that is not the declared one) as its `async` does;
 * the caller reports it in its own words.
 */
function inflatedLength(entry: JSZip.JSZipObject, room: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    let length = 0;
    const stream = (entry as unknown as InternalStreaming).internalStream("uint8array");
    stream
      .on("data", (chunk) => {
        length += chunk.byteLength;
        if (length > room) {
          stream.pause();
          resolve(undefined);
        }
      })
      .on("error", reject)
      .on("end", () => resolve(length))
      .resume();
  });
}

/**
 * jszip's documented `ZipObject#internalStream`, which its type declarations leave out: the
 * stream its `async` reads (same chunks, same errors) without the Node stream adapter of
 * `nodeStream`, which doubled the CPU of reading a small entry.
 */
interface InternalStreaming {
  internalStream(type: "uint8array"): JSZip.JSZipStreamHelper<Uint8Array>;
}
