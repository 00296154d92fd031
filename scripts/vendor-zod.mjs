// Gives the library's dist/ tree zod as one file: dist/vendor/zod.js (zod's ESM modules bundled by
// esbuild), which every compiled module that imports "zod" imports instead, by a relative path.
// Importing `svc-config/v1` then loads one file for zod, not 95 (Node resolves, reads and links each
// module it loads, which was most of the import's time). The declaration files still name "zod",
// whose types are the package's. `npm run build` runs it after tsc.
import { readFile, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { writeThirdPartyNotices } from "./third-party-notices.mjs";
import { zodEnglishOnly } from "./zod-english-only.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const vendored = join(dist, "vendor", "zod.js");

const { metafile } = await build({
  absWorkingDir: root,
  stdin: { contents: 'export * from "zod";\nexport { default } from "zod";\n', resolveDir: root, loader: "js" },
  outfile: vendored,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  banner: { js: "// zod, bundled: its licence is in THIRD-PARTY-NOTICES.txt beside this file." },
  metafile: true,
  logLevel: "warning",
  plugins: [zodEnglishOnly],
});
await writeThirdPartyNotices(root, Object.keys(metafile.inputs), join(dist, "vendor", "THIRD-PARTY-NOTICES.txt"));

/** The compiled modules of dist/ (not the CLI's bundle in dist/bin/, which holds zod already). */
async function compiledModules(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && path !== join(dist, "bin") && path !== join(dist, "vendor")) found.push(...(await compiledModules(path)));
    else if (entry.isFile() && entry.name.endsWith(".js")) found.push(path);
  }
  return found;
}

const ZOD_IMPORT = / from "zod";$/gm;
let rewritten = 0;
for (const file of await compiledModules(dist)) {
  const code = await readFile(file, "utf8");
  if (!code.includes(' from "zod";')) continue;
  const target = relative(dirname(file), vendored).split("\\").join("/");
  await writeFile(file, code.replace(ZOD_IMPORT, ` from "${target.startsWith(".") ? target : `./${target}`}";`));
  rewritten += 1;
}
// A compiled module importing zod some other way would load a second copy of it.
for (const file of await compiledModules(dist)) {
  if (/["']zod(\/[^"']*)?["']/.test(await readFile(file, "utf8"))) throw new Error(`vendor-zod: ${relative(root, file)} still imports zod from node_modules`);
}
process.stdout.write(`vendor-zod: dist/vendor/zod.js, imported by ${rewritten} compiled modules\n`);
