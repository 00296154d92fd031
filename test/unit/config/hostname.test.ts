import { describe, expect, it } from "vitest";
import { checkHostname, normalizeHostname } from "../../../src/rules/hostname.js";

describe("custom-domain hostnames", () => {
  it.each([
    ["app.example.com", "app.example.com"],
    ["  App.Example.COM. ", "app.example.com"],
    ["a.io", "a.io"],
    ["my-app.example.xn--p1ai", "my-app.example.xn--p1ai"],
    ["xn--bcher-kva.example.com", "xn--bcher-kva.example.com"],
    [`${"a".repeat(63)}.com`, `${"a".repeat(63)}.com`],
  ])("accepts %j as %j", (input, hostname) => {
    expect(checkHostname(input)).toEqual({ valid: true, hostname });
  });

  it.each([
    ["localhost", /needs at least two labels/],
    ["bücher.example.com", /non-ASCII characters; write the punycode form \(xn--…\)/],
    ["\u212Aelvin.example.com", /non-ASCII characters/],
    ["*.example.com", /wildcard domains are not supported/],
    ["-app.example.com", /invalid label "-app"/],
    ["app-.example.com", /invalid label "app-"/],
    ["app..example.com", /invalid label ""/],
    ["app_1.example.com", /invalid label "app_1"/],
    [`${"a".repeat(64)}.com`, /invalid label/],
    ["app.example.c", /the last label must be 2 to 63 letters or punycode/],
    ["app.example.123", /the last label must be 2 to 63 letters or punycode/],
    ["ab", /"ab" must be 3 to 253 characters long/],
    [`${"abcdefghi.".repeat(26)}com`, /must be 3 to 253 characters long/],
    ["example.com..", /invalid label ""/],
  ])("rejects %j", (input, message) => {
    const result = checkHostname(input);
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.message).toMatch(message);
  });

  it("removes only one trailing dot", () => {
    expect(normalizeHostname("example.com.")).toBe("example.com");
    expect(normalizeHostname("example.com..")).toBe("example.com.");
  });
});
