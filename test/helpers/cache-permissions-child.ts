/**
 * Run by `test/unit/bundle/cache-permissions.test.ts` as a user without root's way past file
 * modes (`nobody` through `setpriv` when the tests run as root): bundles the project in the
 * directory given as its argument with a cache, then takes read and write permission away from
 * the cache's entries and directory, and prints what each step gave as one line of JSON.
 */
import { chmodSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ArchiveChangedError, type ArchiveRef, readArchiveBytes } from "../../src/bundle/archive-ref.js";
import { bundleFunctions } from "../../src/bundle/bundle-many.js";
import type { ResolvedFunction } from "../../src/model/desired-state.js";
import { functionConfig } from "../unit/bundle/function-config.js";

const root = process.argv[2] ?? "";
const cacheDir = join(root, "cache");
const entries = (): string[] => readdirSync(join(cacheDir, "v2")).map((name) => join(cacheDir, "v2", name));
/** Two functions built from one source: they share one cache entry. */
const fn = (slug: string): ResolvedFunction => {
  const { source: _entry, ...config } = functionConfig(slug, join(root, "shared"));
  return config;
};
const run = (): Promise<Map<string, ArchiveRef>> => bundleFunctions([fn("first"), fn("second")], { workingDir: root, cacheDir });
const where = (archives: Map<string, ArchiveRef>): Record<string, string> => Object.fromEntries([...archives].map(([slug, a]) => [slug, `${a.bytes.kind} ${a.zipSha256}`]));

const cold = await run();
const files = entries();

// An entry nobody may read: a miss, rebuilt and written again in its place.
for (const file of files) chmodSync(file, 0o000);
const unreadable = await run();
const rewrittenReadable = entries().map((file) => (statSync(file).mode & 0o400) !== 0);

// Entries unreadable in a directory that cannot be written: rebuilt, and held in memory.
for (const file of entries()) chmodSync(file, 0o000);
chmodSync(join(cacheDir, "v2"), 0o555);
const unwritable = await run();
chmodSync(join(cacheDir, "v2"), 0o755);
for (const file of entries()) chmodSync(file, 0o644);

// An entry made unreadable after the plan found it: the upload refuses it, naming the function, and sends nothing.
const planned = await run();
for (const file of entries()) chmodSync(file, 0o000);
const refusals: string[] = [];
for (const archive of planned.values()) {
  try {
    await readArchiveBytes(archive);
    refusals.push(`${archive.slug}: read`);
  } catch (err) {
    refusals.push(err instanceof ArchiveChangedError ? `${err.details.slug}: ${err.details.reason}: ${/EACCES/.test(err.message) ? "EACCES" : err.message}` : String(err));
  }
}

process.stdout.write(`${JSON.stringify({ uid: process.getuid?.(), entryFiles: files.length, cold: where(cold), unreadable: where(unreadable), rewrittenReadable, unwritable: where(unwritable), refusals })}\n`);
