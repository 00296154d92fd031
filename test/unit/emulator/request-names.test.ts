import { describe, expect, it } from "vitest";
import { unsafeNameIssues } from "../../../src/emulator/http/validate.js";

describe("names in request bodies", () => {
  it.each([
    [{ role: { name: "r\nNODE_OPTIONS=x" } }, "role.name", "a control character (\\u000a)"],
    [{ database: { name: "db", owner_name: "own\u001b[2K" } }, "database.owner_name", "a control character (\\u001b)"],
    [{ branch: { name: "feat\u202egnp" } }, "branch.name", "a bidirectional-override character (\\u202e)"],
    [{ trigger: { name: "x", function_slug: "a\u200bb" } }, "trigger.function_slug", "a zero-width character (\\u200b)"],
    [{ domain: "shop\u2028.example.com" }, "domain", "a line or paragraph separator"],
    [{ endpoints: [{ type: "read_write" }], branch: { name: "ok" }, roles: [{ name: "a" }, { name: "b\r" }] }, "roles.1.name", "a control character (\\u000d)"],
  ])("refuses %j at %s", (body, path, message) => {
    expect(unsafeNameIssues(body)).toEqual([{ path, message: expect.stringContaining(`the name contains ${message}`) }]);
  });

  it("leaves every other field alone: env values, descriptions and plain names", () => {
    expect(unsafeNameIssues({ function: { name: "Api", slug: "api", environment: { PEM: "-----BEGIN\nKEY-----" } }, description: "line one\nline two", role: { name: "app_owner" } })).toEqual([]);
  });
});
