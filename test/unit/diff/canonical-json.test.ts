import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Of } from "../../../src/diff/canonical-json.js";

describe("canonical JSON", () => {
  it.each([
    ["a number", 1.5],
    ["a string with control characters and a line separator", "a\u0000b\u2028"],
    ["null", null],
    ["a boolean", false],
  ])("writes %s as JSON.stringify does", (_name, value) => {
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it("sorts keys at every level, so key order never changes the text", () => {
    const a = { b: 1, a: { d: [{ y: 2, x: 1 }], c: "é" } };
    const b = { a: { c: "é", d: [{ x: 1, y: 2 }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"c":"é","d":[{"x":1,"y":2}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(sha256Of(b)).toBe(sha256Of(a));
  });

  it("drops undefined entries of objects and writes them null in arrays, as JSON does", () => {
    const value = { gone: undefined, kept: [undefined, 1, () => 2], first: undefined };
    expect(canonicalJson(value)).toBe('{"kept":[null,1,null]}');
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson({ only: undefined })).toBe("{}");
    expect(canonicalJson([])).toBe("[]");
  });

  it("escapes keys as JSON strings", () => {
    expect(canonicalJson({ 'a"b': 1, "__proto__x": 2, "\n": 3 })).toBe('{"\\n":3,"__proto__x":2,"a\\"b":1}');
  });

  it("names the digest of the text with its algorithm", () => {
    expect(sha256Of({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(sha256Of({ a: 1 })).not.toBe(sha256Of({ a: 2 }));
  });
});
