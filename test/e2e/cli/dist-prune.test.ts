/**
 * A build leaves in dist/ only what it wrote: `npm pack` ships dist/ as it is, so a module deleted
 * from src/ or a CLI chunk of an earlier build must not reach a tarball packed from a working tree.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, ensureBuilt } from "./harness.js";

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

const DIST = join(ROOT, "dist");
const BIN = join(DIST, "bin");
const prune = () => promisify(execFile)(process.execPath, [join(ROOT, "scripts", "prune-dist.mjs")], { cwd: ROOT });

describe("dist/ after a build", () => {
  it("removes a compiled module without a source and a chunk of an earlier bundle, and nothing the build wrote", async () => {
    const before = readdirSync(BIN).sort();
    const staleModule = join(DIST, "model", "deleted-module.js");
    const staleChunk = join(BIN, "apply-command-EARLIER0.js");
    writeFileSync(staleModule, "export {};\n");
    writeFileSync(`${staleModule}.map`, "{}\n");
    writeFileSync(staleChunk, "export {};\n");
    const { stdout } = await prune();
    expect(stdout).toContain("removed 3 file(s)");
    expect(existsSync(staleModule) || existsSync(`${staleModule}.map`) || existsSync(staleChunk)).toBe(false);
    expect(readdirSync(BIN).sort()).toEqual(before);
    expect(existsSync(join(DIST, "v1.js")) && existsSync(join(DIST, "vendor", "zod.js"))).toBe(true);
  });

  it("holds only files of the current build: each bundle file is in the bundle's manifest, each compiled file has its source", () => {
    const manifest = Object.keys(JSON.parse(readFileSync(join(BIN, "svc.modules.json"), "utf8")) as Record<string, string[]>);
    const listed = new Set(manifest.flatMap((file) => [file, `${file}.map`]));
    const unlisted = readdirSync(BIN)
      .map((name) => relative(ROOT, join(BIN, name)))
      .filter((file) => !listed.has(file) && !/(svc\.modules\.json|THIRD-PARTY-NOTICES\.txt)$/.test(file));
    expect(unlisted).toEqual([]);
    const orphans: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (path !== BIN && path !== join(DIST, "vendor")) walk(path);
        } else {
          const module = /^(.*)\.(js|d\.ts)(\.map)?$/.exec(relative(DIST, path))?.[1];
          if (module !== undefined && !existsSync(join(ROOT, "src", `${module}.ts`))) orphans.push(relative(ROOT, path));
        }
      }
    };
    walk(DIST);
    expect(orphans).toEqual([]);
  });
});
