import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** The section sign, written as an escape so this file does not contain one. */
const SECTION_SIGN = "\u00a7";

/** Folders and files that ship or run with the repository; their comments cite nothing outside it. */
const SCANNED = ["src", "test", "bench", "fixtures", "examples", "bin", "docs", ".ci", "README.md", "ARCHITECTURE.md", "package.json", "vitest.config.ts"];

function filesOf(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.parentPath.includes("node_modules")).map((e) => join(e.parentPath, e.name));
}

/** `file:line` of every line citing a section of a document (the section sign). */
function sectionCitations(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (line.includes(SECTION_SIGN) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe("comments and strings state their contracts", () => {
  it("finds a planted citation, so the scan below can fail", () => {
    expect(sectionCitations("a.ts", `// ok\n/** Retries (api.md ${SECTION_SIGN}2.3). */`)).toEqual([`a.ts:2: /** Retries (api.md ${SECTION_SIGN}2.3). */`]);
  });

  it("never cite a section of a document the repository does not contain", () => {
    const files = SCANNED.flatMap(filesOf);
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) => sectionCitations(relative(ROOT, file), readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });
});
