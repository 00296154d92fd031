import { describe, expect, it } from "vitest";
import {
  ZIP_LIMITS,
  checkZipLimits,
  describeZipLimitViolation,
  formatBytes,
  hasRootEntry,
  isSymlinkMode,
  largestZipFiles,
  zipEntryNameIssue,
  zipSlipIssue,
} from "../../../src/rules/zip-entries.js";

describe("zip-slip rule shared with the deployment route", () => {
  it.each([
    ["index.mjs", null],
    ["node_modules/pkg/index.js", null],
    ["lib/", null],
    ["/etc/passwd", "absolute"],
    ["lib\\evil.js", "backslash"],
    ["C:/Windows/evil.js", "drive-letter"],
    ["c:evil.js", "drive-letter"],
    ["../escape.js", "dot-dot-segment"],
    ["lib/../../escape.js", "dot-dot-segment"],
    ["lib/..", "dot-dot-segment"],
    ["lib/..hidden/ok.js", null],
  ])("judges %j as %s", (name, expected) => {
    expect(zipSlipIssue(name)).toBe(expected);
  });
});

describe("canonical archive paths written by the bundler", () => {
  it.each([
    ["index.mjs", {}, null],
    ["a/b/c.js", {}, null],
    ["", {}, "empty"],
    ["lib//x.js", {}, "empty-segment"],
    ["lib/", {}, "empty-segment"],
    ["lib/", { directory: true }, null],
    ["./index.mjs", {}, "dot-segment"],
    ["a/./b.js", {}, "dot-segment"],
    ["bad\u0000name.js", {}, "control-character"],
    ["tab\tname.js", {}, "control-character"],
    ["invoice\u202efdp.js", {}, "invisible-character"],
    ["index\u200b.mjs", {}, "invisible-character"],
    ["lib/\u2028.js", {}, "invisible-character"],
    ["lone\ud800.js", {}, "invisible-character"],
    ["../x.js", {}, "dot-dot-segment"],
    ["/abs.js", {}, "absolute"],
    ["ünïcode/名前.js", {}, null],
  ])("judges %j (%j) as %s", (name, options, expected) => {
    expect(zipEntryNameIssue(name, options)).toBe(expected);
  });
});

describe("root entry and symlink detection", () => {
  it.each([
    [["index.mjs"], true],
    [["index.js", "lib/a.js"], true],
    [["lib/index.mjs"], false],
    [["index.ts"], false],
    [[], false],
  ])("finds a root entry in %j: %s", (names, expected) => {
    expect(hasRootEntry(names)).toBe(expected);
  });

  it.each([
    [0o120777, true],
    [0o100644, false],
    [0o644, false],
    [0o040755, false],
    [null, false],
  ])("treats mode %o as a symlink: %s", (mode, expected) => {
    expect(isSymlinkMode(mode)).toBe(expected);
  });
});

describe("archive limits", () => {
  it("accepts an archive exactly at every limit", () => {
    expect(
      checkZipLimits({ zipBytes: ZIP_LIMITS.maxZipBytes, unzippedBytes: ZIP_LIMITS.maxUnzippedBytes, entries: ZIP_LIMITS.maxEntries }),
    ).toEqual([]);
  });

  it("reports every limit exceeded, with readable sizes", () => {
    const violations = checkZipLimits({ zipBytes: 11 * 1024 * 1024, unzippedBytes: 65 * 1024 * 1024, entries: 4097 });
    expect(violations.map(describeZipLimitViolation)).toEqual([
      "the archive is 11 MiB (limit 10 MiB)",
      "the files total 65 MiB uncompressed (limit 64 MiB)",
      "the archive has 4097 entries (limit 4096)",
    ]);
  });

  it("names the five largest files, largest first, ties by path", () => {
    const files = [
      { path: "b", bytes: 5 },
      { path: "a", bytes: 5 },
      { path: "big", bytes: 100 },
      { path: "c", bytes: 1 },
      { path: "d", bytes: 2 },
      { path: "e", bytes: 3 },
      { path: "f", bytes: 0 },
    ];
    expect(largestZipFiles(files).map((f) => f.path)).toEqual(["big", "a", "b", "e", "d"]);
  });

  it.each([
    [512, "512 B"],
    [1536, "1.5 KiB"],
    [10 * 1024 * 1024, "10 MiB"],
    [Math.round(12.34 * 1024 * 1024), "12.3 MiB"],
  ])("formats %d bytes as %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
