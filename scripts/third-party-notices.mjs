// Writes the licence notices of the third-party packages a bundle holds: esbuild copies their code
// into files of ours (dist/bin/, dist/vendor/), so their licences ship beside those files, one
// section per package (name, version, declared licence, then the package's own licence file).
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The package directory (relative to the root) holding each bundled input under node_modules/. */
function packageDirs(inputs) {
  const dirs = new Set();
  for (const input of inputs) {
    const at = input.lastIndexOf("node_modules/");
    if (at < 0) continue;
    const parts = input.slice(at + "node_modules/".length).split("/");
    const name = parts[0].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
    dirs.add(`${input.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

/** The package's licence text: its LICENSE/LICENCE/COPYING file, or null when it ships none. */
async function licenceText(dir) {
  const file = (await readdir(dir)).find((name) => /^(licen[cs]e|copying)(\.[a-z]+)?$/i.test(name));
  return file === undefined ? null : (await readFile(join(dir, file), "utf8")).trim();
}

/** Writes `file`: the notices of every package whose modules are among `inputs` (paths relative to `root`). */
export async function writeThirdPartyNotices(root, inputs, file) {
  const sections = [];
  for (const dir of packageDirs(inputs)) {
    const manifest = JSON.parse(await readFile(join(root, dir, "package.json"), "utf8"));
    const text = await licenceText(join(root, dir));
    sections.push(`${manifest.name} ${manifest.version}\nLicense: ${manifest.license ?? "not declared"}\n\n${text ?? "(the package ships no licence file)"}\n`);
  }
  const head = "Third-party code bundled into the files of this directory, and the licences it is used under.\n";
  await writeFile(file, `${head}\n${sections.join(`\n${"-".repeat(72)}\n\n`)}`);
  return sections.length;
}
