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

/** The user's seed documents, cited as `seed 001`, `(seed)` or `(seed rule 3)`: not in the repository either. */
const SEED_CITATION = /\bseed 00\d\b|(?:^|\s)\(seed(?: rule \d+)?\)/;

/** `file:line` of every line citing a section of a document (the section sign) or a seed document. */
function sectionCitations(file: string, text: string): string[] {
  const cites = (line: string): boolean => line.includes(SECTION_SIGN) || SEED_CITATION.test(line);
  return text.split("\n").flatMap((line, i) => (cites(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** The file names of every Markdown document the repository holds (README.md, docs/*.md, …). */
function repositoryDocuments(files: readonly string[]): Set<string> {
  return new Set(files.filter((file) => file.endsWith(".md")).map((file) => file.slice(file.lastIndexOf("/") + 1)));
}

/** `file:line` of every comment line naming a Markdown document the repository does not hold (`(api.md)`). */
function missingDocumentCitations(file: string, text: string, documents: ReadonlySet<string>): string[] {
  const comment = /^\s*(?:\/\/|\/?\*)/;
  return text.split("\n").flatMap((line, i) => {
    const named = comment.test(line) ? [...line.matchAll(/\b[\w-]+\.md\b/g)].map((m) => m[0]) : [];
    return named.some((name) => !documents.has(name)) ? [`${file}:${i + 1}: ${line.trim()}`] : [];
  });
}

describe("comments and strings state their contracts", () => {
  it("finds a planted citation, so the scan below can fail", () => {
    expect(sectionCitations("a.ts", `// ok\n/** Retries (api.md ${SECTION_SIGN}2.3). */`)).toEqual([`a.ts:2: /** Retries (api.md ${SECTION_SIGN}2.3). */`]);
    expect(sectionCitations("b.ts", "// seed: 42\n// reset(seed)\n// auth (seed 001)\n// the gate (seed rule 3)")).toEqual(["b.ts:3: // auth (seed 001)", "b.ts:4: // the gate (seed rule 3)"]);
  });

  it("finds a comment naming a document the repository does not hold, and not one naming a document it holds or a string", () => {
    const documents = new Set(["README.md", "engine.md"]);
    const text = "/** Records (api.md). */\n// see README.md and engine.md\nconst out = \"plan.md\";\n * the lines (overview.md)";
    expect(missingDocumentCitations("a.ts", text, documents)).toEqual(["a.ts:1: /** Records (api.md). */", "a.ts:4: * the lines (overview.md)"]);
  });

  it("never name, in a comment, a document the repository does not hold", () => {
    // This file names missing documents in its own test above.
    const all = SCANNED.flatMap(filesOf).filter((file) => file !== import.meta.filename).map((file) => relative(ROOT, file));
    const documents = repositoryDocuments(all);
    expect(all.length).toBeGreaterThan(500);
    expect(all.flatMap((file) => missingDocumentCitations(file, readFileSync(join(ROOT, file), "utf8"), documents))).toEqual([]);
  });

  it("never cite a section of a document the repository does not contain", () => {
    // This file plants citations in its own first test.
    const files = SCANNED.flatMap(filesOf).filter((file) => file !== import.meta.filename);
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) => sectionCitations(relative(ROOT, file), readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });
});
