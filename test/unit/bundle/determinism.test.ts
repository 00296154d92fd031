import { execFile } from "node:child_process";
import { cpSync, utimesSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { buildFunctionArchive } from "../../../src/bundle/archive.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { fixturePath, functionConfig } from "./function-config.js";

const run = promisify(execFile);
const trees: TempTree[] = [];
afterAll(() => {
  for (const t of trees) t.remove();
});

const cases = [
  { name: "ts-npm", bundler: "esbuild" as const, sourcemap: true },
  { name: "dir-entry", bundler: "esbuild" as const, sourcemap: false },
  { name: "prebuilt", bundler: "none" as const, sourcemap: false },
];

/** Copies a fixture to `<tmp>/<depth segments>/fn` and stamps every file with `mtime`. */
function copyFixture(name: string, depth: string, mtime: Date): string {
  const tree = createTempTree({});
  trees.push(tree);
  const target = tree.path(`${depth}/fn`);
  cpSync(fixturePath(name), target, { recursive: true, verbatimSymlinks: true });
  for (const file of ["index.ts", "index.mjs", "index.js", "lib/label.mjs", "lib/shout.ts"]) {
    try {
      utimesSync(`${target}/${file}`, mtime, mtime);
    } catch {
      // Not every fixture has every file.
    }
  }
  return target;
}

interface CentralEntry {
  name: string;
  madeBy: number;
  method: number;
  dosTime: number;
  dosDate: number;
  unixMode: number;
  extraLength: number;
  commentLength: number;
}

/** Parses the central directory of a ZIP: what unzip tools and digests actually see. */
function centralDirectory(zip: Uint8Array): { entries: CentralEntry[]; archiveCommentLength: number } {
  const view = Buffer.from(zip);
  const eocd = view.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = view.readUInt16LE(eocd + 10);
  let offset = view.readUInt32LE(eocd + 16);
  const entries: CentralEntry[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = view.readUInt16LE(offset + 28);
    const extraLength = view.readUInt16LE(offset + 30);
    const commentLength = view.readUInt16LE(offset + 32);
    entries.push({
      name: view.toString("utf8", offset + 46, offset + 46 + nameLength),
      madeBy: view.readUInt8(offset + 5),
      method: view.readUInt16LE(offset + 10),
      dosTime: view.readUInt16LE(offset + 12),
      dosDate: view.readUInt16LE(offset + 14),
      unixMode: view.readUInt32LE(offset + 38) >>> 16,
      extraLength,
      commentLength,
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, archiveCommentLength: view.readUInt16LE(eocd + 20) };
}

describe("deterministic archives", () => {
  it.each(cases)("$name ($bundler): bundling twice gives identical bytes", async ({ name, bundler, sourcemap }) => {
    const fn = functionConfig("fn", fixturePath(name), { bundler, sourcemap });
    const first = await buildFunctionArchive(fn);
    const second = await buildFunctionArchive(fn);
    expect(Buffer.from(second.zip).equals(Buffer.from(first.zip))).toBe(true);
    expect(second.zipSha256).toBe(first.zipSha256);
    expect(first.zipSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.zipBytes).toBe(first.zip.byteLength);
  });

  it.each(cases)("$name ($bundler): copies at different paths and mtimes give identical bytes", async ({ name, bundler, sourcemap }) => {
    const shallow = copyFixture(name, "a", new Date(Date.UTC(2001, 0, 1)));
    const deep = copyFixture(name, "some/much/deeper/checkout", new Date(Date.UTC(2031, 6, 15, 13, 7, 9)));
    const a = await buildFunctionArchive(functionConfig("fn", shallow, { bundler, sourcemap }));
    const b = await buildFunctionArchive(functionConfig("fn", deep, { bundler, sourcemap }));
    const original = await buildFunctionArchive(functionConfig("fn", fixturePath(name), { bundler, sourcemap }));
    expect(b.zipSha256).toBe(a.zipSha256);
    expect(original.zipSha256).toBe(a.zipSha256);
    expect(Buffer.from(b.zip).equals(Buffer.from(a.zip))).toBe(true);
  });

  it("gives identical digests under different time zones", async () => {
    const probe = fileURLToPath(new URL("./print-digest.ts", import.meta.url));
    const args = ["--import", "tsx", probe, "ts-npm", "prebuilt:none"];
    const digests = new Set<string>();
    const offsets = new Set<string>();
    for (const tz of ["UTC", "America/Los_Angeles", "Pacific/Chatham"]) {
      const { stdout } = await run(process.execPath, args, { env: { ...process.env, TZ: tz } });
      const [offset = "", ...lines] = stdout.trim().split("\n");
      offsets.add(offset);
      digests.add(lines.join("\n"));
    }
    expect(offsets.size).toBe(3);
    expect(digests.size).toBe(1);
    const tsNpm = await buildFunctionArchive(functionConfig("tsnpm", fixturePath("ts-npm"), { sourcemap: true }));
    expect([...digests][0]).toContain(`tsnpm ${tsNpm.zipSha256}`);
  });

  it("writes the canonical form: sorted files only, 1980-01-01, 0644, DEFLATE, UNIX, no comments or extra fields", async () => {
    const archive = await buildFunctionArchive(functionConfig("fn", fixturePath("prebuilt"), { bundler: "none" }));
    const { entries, archiveCommentLength } = centralDirectory(archive.zip);
    expect(archiveCommentLength).toBe(0);
    expect(entries.map((e) => e.name)).toEqual([...entries.map((e) => e.name)].sort());
    expect(entries.some((e) => e.name.endsWith("/"))).toBe(false);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        madeBy: 3,
        method: 8,
        dosTime: 0,
        dosDate: (0 << 9) | (1 << 5) | 1,
        unixMode: 0o644,
        extraLength: 0,
        commentLength: 0,
      });
    }
  });

  it("orders entries by UTF-8 bytes, not by UTF-16 code units", async () => {
    // In UTF-16, U+1F600 (surrogate 0xD83D…) sorts before U+FF5E; in UTF-8 (F0… vs EF…) after it.
    const files = { "index.mjs": "x", "\u{1F600}.js": "a", "\uFF5E.js": "b" };
    const archive = await buildFunctionArchive(functionConfig("fn", fixturePath("prebuilt"), { bundler: async () => files }));
    expect(centralDirectory(archive.zip).entries.map((e) => e.name)).toEqual(["index.mjs", "\uFF5E.js", "\u{1F600}.js"]);
  });

  it("orders integer-like names by bytes too (10 before 9)", async () => {
    const files = { "9": "a", "10": "b", "index.mjs": "x", "lib/2": "c", "lib/10": "d" };
    const archive = await buildFunctionArchive(functionConfig("fn", fixturePath("prebuilt"), { bundler: async () => files }));
    const names = centralDirectory(archive.zip).entries.map((e) => e.name);
    expect(names).toEqual(["10", "9", "index.mjs", "lib/10", "lib/2"]);
  });
});
