/**
 * Child-process probe for the time-zone determinism test: bundles the fixture functions named
 * on the command line and prints `slug sha256` lines. Run with `node --import tsx`.
 */
import { buildFunctionArchive } from "../../../src/bundle/archive.js";
import { fixturePath, functionConfig } from "./function-config.js";

const lines: string[] = [`offset ${new Date(1980, 0, 1).getTimezoneOffset()}`];
for (const arg of process.argv.slice(2)) {
  const [name = "", bundler = "esbuild"] = arg.split(":");
  const archive = await buildFunctionArchive(
    functionConfig(name.replace(/[^a-z0-9]/g, ""), fixturePath(name), {
      bundler: bundler === "none" ? "none" : "esbuild",
      sourcemap: bundler !== "none",
    }),
  );
  lines.push(`${archive.slug} ${archive.zipSha256}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
