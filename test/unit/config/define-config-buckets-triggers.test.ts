import { describe, expect, it } from "vitest";
import { validatePolicy } from "../../../src/v1.js";
import { issueAt, issuesOf } from "./validation-helpers.js";

const functions = { hello: { name: "Hello", source: "./hello" } };
const buckets = { uploads: {} };
const schedule = (def: Record<string, unknown>) => ({ functions, triggers: { nightly: { type: "schedule", function: "hello", cron: "0 3 * * *", ...def } } });
const storage = (def: Record<string, unknown>) => ({
  functions,
  buckets,
  triggers: { onUpload: { type: "storage_object_created", function: "hello", bucket: "uploads", ...def } },
});

describe("buckets", () => {
  it.each(["uploads", "my.bucket", "Bucket Name", "b".repeat(255), "ünïcode"])("accepts the name %j", (name) => {
    expect(() => validatePolicy({ buckets: { [name]: { access: "public_read" } } })).not.toThrow();
  });

  it.each([
    ["a/b", 'buckets["a/b"]', 'it contains "/"'],
    ["", 'buckets[""]', "it must be 1 to 255 characters long"],
    ["b".repeat(256), `buckets.${"b".repeat(256)}`, "it must be 1 to 255 characters long"],
    ["tab\tname", 'buckets["tab\\tname"]', "it contains a control character (\\u0009)"],
    [".", 'buckets["."]', "it is a dot segment"],
    ["..", 'buckets[".."]', "it is a dot segment"],
    ["%2E%2e", 'buckets["%2E%2e"]', "it is a dot segment"],
    ["evil\u202egnp.js", 'buckets["evil\\u202egnp.js"]', "it contains a bidirectional-override character (\\u202e)"],
    ["zero\u200bwidth", 'buckets["zero\\u200bwidth"]', "it contains a zero-width character (\\u200b)"],
  ])("rejects the name %j", (name, path, why) => {
    const message = issueAt(issuesOf(() => validatePolicy({ buckets: { [name]: {} } })), path).message;
    expect(message).toMatch(/^bucket name .* is invalid: /);
    expect(message).toContain(why);
    expect(message).not.toMatch(/[\u0000-\u001f\u200b\u202e]/);
  });

  it.each<[unknown, string, string]>([
    [{ access: "public" }, 'buckets["my.bucket"].access', 'must be "private" or "public_read" (got "public")'],
    [{ access: "public-read" }, 'buckets["my.bucket"].access', 'must be "private" or "public_read" (got "public-read")'],
    ["private", 'buckets["my.bucket"]', "must be { access?: … } (got a string)"],
  ])("rejects the definition %j", (def, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy({ buckets: { "my.bucket": def } })), path).message).toBe(message);
  });
});

describe("triggers", () => {
  it.each<[string, Record<string, unknown>]>([
    ["a schedule", schedule({})],
    ["a schedule with every option", schedule({ functionPath: "/cron/nightly", enabled: false })],
    ["a storage trigger", storage({})],
    ["a storage trigger with a prefix", storage({ prefix: "images/" })],
    ["a storage trigger with a 1024-byte prefix", storage({ prefix: "é".repeat(512) })],
  ])("accepts %s", (_label, policy) => {
    expect(() => validatePolicy(policy)).not.toThrow();
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["an undeclared function", schedule({ function: "missing" }), "triggers.nightly.function", 'function `missing` is not declared; declare it under `functions` (declared: "hello")'],
    ["an undeclared bucket", storage({ bucket: "photos" }), "triggers.onUpload.bucket", 'bucket `photos` is not declared; declare it under `buckets` (declared: "uploads")'],
    ["a bad cron", schedule({ cron: "0 24 * * *" }), "triggers.nightly.cron", "field 2 (hour): 24 is outside 0–23"],
    ["a macro cron", schedule({ cron: "@hourly" }), "triggers.nightly.cron", 'macros such as @hourly are not supported; write the 5 fields, e.g. "0 0 * * *" for daily'],
    ["a missing cron", schedule({ cron: undefined }), "triggers.nightly.cron", "is required"],
    ["an unknown type", schedule({ type: "http" }), "triggers.nightly.type", 'must be "schedule" or "storage_object_created"'],
    ["a missing type", schedule({ type: undefined }), "triggers.nightly.type", 'must be "schedule" or "storage_object_created"'],
    ["a bucket on a schedule", schedule({ bucket: "uploads" }), "triggers.nightly", '"bucket" is not a known key here'],
    ["a cron on a storage trigger", storage({ cron: "* * * * *" }), "triggers.onUpload", '"cron" is not a known key here'],
    ["an empty prefix", storage({ prefix: "" }), "triggers.onUpload.prefix", "must be 1 to 1024 UTF-8 bytes; omit it to match every object"],
    ["a 1025-byte prefix", storage({ prefix: `${"é".repeat(512)}x` }), "triggers.onUpload.prefix", "must be 1 to 1024 UTF-8 bytes; omit it to match every object"],
    ["a functionPath without a leading slash", schedule({ functionPath: "cron" }), "triggers.nightly.functionPath", 'must start with "/", have at most 2048 characters and contain no whitespace'],
    ["a functionPath with whitespace", schedule({ functionPath: "/a b" }), "triggers.nightly.functionPath", 'must start with "/", have at most 2048 characters and contain no whitespace'],
    ["a 2049-character functionPath", schedule({ functionPath: `/${"p".repeat(2048)}` }), "triggers.nightly.functionPath", 'must start with "/", have at most 2048 characters and contain no whitespace'],
    ["a string enabled", schedule({ enabled: "no" }), "triggers.nightly.enabled", "must be true or false (got a string)"],
  ])("rejects %s", (_label, policy, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy(policy)), path).message).toBe(message);
  });

  it("reports an undeclared function even when no function is declared", () => {
    const policy = { triggers: { t: { type: "schedule", function: "hello", cron: "* * * * *" } } };
    expect(issueAt(issuesOf(() => validatePolicy(policy)), "triggers.t.function").message).toBe(
      "function `hello` is not declared; declare it under `functions` (none declared)",
    );
  });

  it.each([
    ["", 'triggers[""]', "it must be 1 to 255 characters long"],
    ["new\nline", 'triggers["new\\nline"]', "it contains a control character (\\u000a)"],
    ["t".repeat(256), `triggers.${"t".repeat(256)}`, "it must be 1 to 255 characters long"],
    ["rtl\u2066x", 'triggers["rtl\\u2066x"]', "it contains a bidirectional-override character (\\u2066)"],
  ])("rejects the trigger name %j", (name, path, why) => {
    const policy = { functions, triggers: { [name]: { type: "schedule", function: "hello", cron: "* * * * *" } } };
    const message = issueAt(issuesOf(() => validatePolicy(policy)), path).message;
    expect(message).toMatch(/^trigger name .* is invalid: /);
    expect(message).toContain(why);
  });
});

describe("prune", () => {
  it.each([true, false, {}, { functions: true }, { functions: true, triggers: false, customDomains: true, buckets: false }])("accepts %j", (prune) => {
    expect(() => validatePolicy({ prune })).not.toThrow();
  });

  it.each<[unknown, string, string]>([
    ["all", "prune", "must be true, false or { functions?, triggers?, customDomains?, buckets?, roles?, databases? } (got a string)"],
    [{ buckets: "yes" }, "prune.buckets", "must be true or false (got a string)"],
    [{ auth: true }, "prune", '"auth" is not a known key here'],
    [{ dataApi: true }, "prune", '"dataApi" is not a known key here'],
  ])("rejects %j", (prune, path, message) => {
    expect(issueAt(issuesOf(() => validatePolicy({ prune })), path).message).toBe(message);
  });
});
