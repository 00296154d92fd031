import { describe, expect, it } from "vitest";
import { escapeCodePoint, escapeUnsafeText, findUnsafeCharacter, unsafeCharacterKind } from "../../../src/rules/visible-text.js";
import { urlSegmentIssue } from "../../../src/rules/url-segment.js";
import { bucketNameIssue, isLookalikeName } from "../../../src/rules/names.js";
import { excludedEntryReason } from "../../../src/rules/shipped-files.js";

describe("unsafe characters", () => {
  it.each([
    ["line\nbreak", "control", "line\\u000abreak"],
    ["nel\u0085", "control", "nel\\u0085"],
    ["rtl\u202eoverride", "bidi", "rtl\\u202eoverride"],
    ["isolate\u2066x", "bidi", "isolate\\u2066x"],
    ["zero\u200bwidth", "zero-width", "zero\\u200bwidth"],
    ["bom\ufeff", "zero-width", "bom\\ufeff"],
    ["half\ud800", "lone-surrogate", "half\\ud800"],
  ])("%j is %s and escapes as %s", (text, kind, escaped) => {
    expect(findUnsafeCharacter(text)?.kind).toBe(kind);
    expect(escapeUnsafeText(text)).toBe(escaped);
  });

  it.each(["plain", "ünïcode", "emoji 😀", "日本語", "tab-free"])("leaves %j unchanged", (text) => {
    expect(findUnsafeCharacter(text)).toBeNull();
    expect(escapeUnsafeText(text)).toBe(text);
  });

  // Hostile row: the quick first pass of findUnsafeCharacter and escapeUnsafeText must let through no
  // character the exact classification calls unsafe (a list edited on one side only would print a
  // bidi override raw everywhere). Every code point, alone and between safe text.
  it("finds and escapes every code point unsafeCharacterKind calls unsafe, and no other, for all of Unicode", () => {
    const missed: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      const ch = String.fromCodePoint(code);
      const unsafe = unsafeCharacterKind(code) !== null;
      const text = `a${ch}b`;
      const expected = unsafe ? `a${escapeCodePoint(code)}b` : text;
      if ((findUnsafeCharacter(text) !== null) !== unsafe || escapeUnsafeText(text) !== expected) missed.push(escapeCodePoint(code));
    }
    expect(missed).toEqual([]);
  });
});

describe("names in URL paths", () => {
  it.each([
    ["", "empty"],
    [".", "dot-segment"],
    ["..", "dot-segment"],
    ["%2E", "dot-segment"],
    [".%2e", "dot-segment"],
    ["a\udc00", "lone-surrogate"],
  ])("%j is refused as %s", (value, issue) => {
    expect(urlSegmentIssue(value)).toBe(issue);
  });

  it.each(["...", ".hidden", "a.b", "%2e%2e%2e", "x%2e"])("%j passes unchanged", (value) => {
    expect(urlSegmentIssue(value)).toBeNull();
  });

  it.each([["a/b", 'contains "/"'], ["..", "is a dot segment"], ["b".repeat(256), "must be 1 to 255 characters long"]])("bucket name %j: %s", (name, why) => {
    expect(bucketNameIssue(name)).toContain(why);
  });

  it("tells lookalike spellings apart from equal and different names", () => {
    expect(isLookalikeName("caf\u00e9", "cafe\u0301")).toBe(true);
    expect(isLookalikeName("café", "café")).toBe(false);
    expect(isLookalikeName("cafe", "café")).toBe(false);
  });

  it.each([
    ["Cyrillic а for Latin a", "media", "medi\u0430"],
    ["Greek Ο for Latin O", "Orders", "\u039frders"],
    ["a digit one for l", "logs", "1ogs"],
    ["rn for m", "mail", "rnail"],
    ["fullwidth letters", "api", "\uff41\uff50\uff49"],
  ])("treats %s as a lookalike", (_label, a, b) => {
    expect(isLookalikeName(a, b)).toBe(true);
  });

  it.each([["media", "medias"], ["Media", "media"], ["logs", "l0gs"], ["v1", "v2"]])("tells %j and %j apart", (a, b) => {
    expect(isLookalikeName(a, b)).toBe(false);
  });
});

describe("files bundler none never ships", () => {
  it.each(["server.pem", "TLS.KEY", "id_rsa", "id_rsa.pub", "id_ed25519", ".npmrc", ".env", ".env.production", ".git"])("excludes %s", (name) => {
    expect(excludedEntryReason(name)).not.toBeNull();
  });

  it.each(["index.mjs", "key.js", "keys.json", "pem.txt", "my_id_rsa_notes.md", "environment.js"])("ships %s", (name) => {
    expect(excludedEntryReason(name)).toBeNull();
  });
});
