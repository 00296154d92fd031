// Removes what an earlier build left in dist/ and this one did not write: tsc's outputs of a
// source module that no longer exists (dist/x/y.js, .d.ts and their maps without src/x/y.ts) and
// the CLI bundle's files of earlier builds (chunks named by hash). `npm pack` ships dist/ as it
// is, so without this a tarball packed from a working tree carries every module ever deleted.
// `npm run build` runs it last; the bundle's files are those svc.modules.json lists (bundle-cli.mjs
// writes it from esbuild's metafile), their source maps, and the two files written beside them.
import { readdir, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const bin = join(dist, "bin");

/** Folders of dist/ written by a script rather than by tsc from src/. */
const WRITTEN_BY_SCRIPTS = new Set([bin, join(dist, "vendor")]);

/** The source module a tsc output was compiled from (`a/b.js.map` → `src/a/b.ts`), or undefined for other files. */
function sourceOf(file) {
  const match = /^(.*)\.(js|d\.ts)(\.map)?$/.exec(relative(dist, file));
  return match === null ? undefined : join(root, "src", `${match[1]}.ts`);
}

async function pruneCompiled(dir) {
  let removed = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!WRITTEN_BY_SCRIPTS.has(path)) removed += await pruneCompiled(path);
      continue;
    }
    const source = sourceOf(path);
    if (source !== undefined && !existsSync(source)) {
      await rm(path);
      removed += 1;
    }
  }
  return removed;
}

async function pruneBundle() {
  const modules = join(bin, "svc.modules.json");
  const bundled = Object.keys(JSON.parse(await readFile(modules, "utf8"))).map((file) => join(root, file));
  const kept = new Set([...bundled, ...bundled.map((file) => `${file}.map`), modules, join(bin, "THIRD-PARTY-NOTICES.txt")]);
  let removed = 0;
  for (const entry of await readdir(bin, { withFileTypes: true })) {
    const path = join(bin, entry.name);
    if (entry.isFile() && !kept.has(path)) {
      await rm(path);
      removed += 1;
    }
  }
  return removed;
}

const removed = (await pruneCompiled(dist)) + (await pruneBundle());
if (removed > 0) console.log(`prune-dist: removed ${removed} file(s) an earlier build left in dist/`);
