import { describe, expect, it } from "vitest";
import { fieldsSchema, policyValueOf } from "../../../src/config/schemas/fields.js";
import { type FieldDescriptor, type ValueRule, followsRule, fromWire, sameFieldValue, toWire } from "../../../src/model/kinds/field.js";

const field = (rule: ValueRule, compare: FieldDescriptor["compare"] = "exact"): FieldDescriptor => ({
  policyKey: "value",
  modelKey: "value",
  wireKey: "value",
  rule,
  compare,
  changeClass: "override",
  pulled: true,
});

const lifetime: ValueRule = { type: "duration", min: 3600, max: 86_400, off: { model: null, means: "for none" } };
const timeout: ValueRule = { type: "duration", min: 60, max: 600, off: { model: -1, means: "to never stop" }, zero: true };
const size: ValueRule = { type: "number-in", values: [0.5, 1, 2], what: "size", unit: "CU", allowed: "0.5, 1, 2" };

describe("comparisons", () => {
  it.each([
    ["exact lists keep their order", "exact", ["a", "b"], ["b", "a"], false],
    ["durations compare as seconds", "duration", 3600, 3600, true],
    ["durations of different lengths differ", "duration", 3600, 7200, false],
    ["hostnames ignore case and one trailing dot", "hostname", "API.Example.com.", "api.example.com", true],
    ["different hostnames differ", "hostname", "api.example.com", "www.example.com", false],
    ["sets ignore order and repeats", "set", ["b", "a", "a"], ["a", "b"], true],
    ["sets with another member differ", "set", ["a", "b"], ["a", "c"], false],
  ] as const)("%s", (_, compare, a, b, same) => {
    expect(sameFieldValue({ compare }, a, b)).toBe(same);
  });
});

describe("value rules", () => {
  it.each([
    ["a size from the set", size, 1, true],
    ["a size outside the set", size, 0.75, false],
    ["a duration within bounds", lifetime, 7200, true],
    ["a duration under the minimum", lifetime, 60, false],
    ["none for a nullable duration", lifetime, null, true],
    ["the sentinel of a duration that has one", timeout, -1, true],
    ["zero where zero is the platform default", timeout, 0, true],
    ["zero where it is not allowed", lifetime, 0, false],
    ["a timestamp", { type: "timestamp" }, "2026-01-01T00:00:00Z", true],
    ["null for a nullable timestamp", { type: "timestamp", nullable: true }, null, true],
    ["text that is no timestamp", { type: "timestamp" }, "soon", false],
    ["a role name", { type: "role-name" }, "app_owner", true],
    ["a role name PostgreSQL reserves", { type: "role-name" }, "pg_monitor", false],
  ] as const)("%s", (_, rule, value, follows) => {
    expect(followsRule(rule, value)).toBe(follows);
  });
});

describe("policy form of durations and sets", () => {
  const schema = fieldsSchema([field(timeout), { ...field(lifetime), policyKey: "ttl" }, { ...field(size), policyKey: "cu" }]);
  it("reads durations as seconds, false as the off value and 0 as itself", () => {
    expect(schema.parse({ value: "5m", ttl: false, cu: 2 })).toEqual({ value: 300, ttl: null, cu: 2 });
    expect(schema.parse({ value: false })).toEqual({ value: -1 });
    expect(schema.parse({ value: 0 })).toEqual({ value: 0 });
  });

  it.each([
    [{ value: -1 }, "-1 is not accepted here; use false to never stop"],
    [{ ttl: true }, 'must be a duration such as "7d", or false for none (got true)'],
    [{ value: "11m" }, 'must be at most 10 minutes (got "11m")'],
    [{ cu: 3 }, "3 CU is not an offered size; allowed: 0.5, 1, 2"],
  ])("rejects %j: %s", (input, message) => {
    const result = schema.safeParse(input);
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toEqual([message]);
  });

  it.each([
    [timeout, 300, "5m"],
    [timeout, -1, false],
    [timeout, 0, 0],
    [timeout, 30, undefined],
    [lifetime, null, false],
    [size, 2, 2],
    [size, 0.75, undefined],
  ] as const)("writes the model value back as the policy states it (%j, %j)", (rule, model, policy) => {
    expect(policyValueOf(field(rule), model)).toEqual(policy);
  });
});

describe("a field carried in another wire form", () => {
  const flag: FieldDescriptor = {
    ...field({ type: "boolean" }),
    wireKey: "no_value",
    wire: { read: (record) => record["mode"] !== "off", write: (value) => (value === false ? { no_value: true } : {}) },
  };
  it("reads the model value through the form and writes only what carries it", () => {
    expect(fromWire([flag], { mode: "off" })).toEqual({ value: false });
    expect(fromWire([flag], { mode: "password" })).toEqual({ value: true });
    expect(toWire([flag], { value: false })).toEqual({ no_value: true });
    expect(toWire([flag], { value: true })).toEqual({});
  });

  it("names a role-name value that breaks the rule in the policy message", () => {
    const result = fieldsSchema([{ ...field({ type: "role-name" }), policyKey: "owner" }]).safeParse({ owner: "pg_owner" });
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toEqual(['role name "pg_owner" is invalid: it starts with "pg_", which PostgreSQL reserves for its own roles']);
  });
});
