/** Test helpers for bundling: fixture paths, function configs and archive reading. */
import { fileURLToPath } from "node:url";
import JSZip from "jszip";
import type { FileBundler, ResolvedFunctionConfig } from "../../../src/model/desired-state.js";

/** Absolute path of `fixtures/functions/<name>`. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../../fixtures/functions/${name}`, import.meta.url));
}

/** A function config with defaults filled, as the engine would pass it. */
export function functionConfig(
  slug: string,
  sourcePath: string,
  overrides: Partial<Omit<ResolvedFunctionConfig, "bundler">> & { bundler?: "esbuild" | "none" | FileBundler } = {},
): ResolvedFunctionConfig {
  return {
    slug,
    name: slug,
    sourcePath,
    source: sourcePath,
    env: {},
    runtime: "nodejs24",
    bundler: "esbuild",
    sourcemap: false,
    customDomains: [],
    ...overrides,
  };
}

/** One entry of an archive as a test sees it. */
export interface ArchiveEntry {
  name: string;
  dir: boolean;
  date: Date;
  unixPermissions: number | string | null;
  text: string;
}

/** Reads every entry of a ZIP, in archive order. */
export async function readArchive(zip: Uint8Array): Promise<ArchiveEntry[]> {
  const archive = await JSZip.loadAsync(zip);
  const entries: ArchiveEntry[] = [];
  for (const entry of Object.values(archive.files)) {
    entries.push({
      name: entry.name,
      dir: entry.dir,
      date: entry.date,
      unixPermissions: entry.unixPermissions,
      text: entry.dir ? "" : await entry.async("string"),
    });
  }
  return entries;
}

/** Archive file names in the order they are stored. */
export async function archiveNames(zip: Uint8Array): Promise<string[]> {
  return (await readArchive(zip)).map((e) => e.name);
}
