import { describe, expect, it } from "vitest";
import { fieldsView } from "../../../src/diff/change-builder.js";
import { defineField } from "../../../src/model/kinds/field.js";

const FIELDS = [
  defineField("name", "name", { type: "string" }, "additive"),
  // A policy key apart from its model key.
  { ...defineField("retention", "retention_seconds", { type: "number" }, "additive"), modelKey: "retentionSeconds" },
  defineField("tags", "tags", { type: "name-list", what: "tag" }, "additive"),
] as const;

describe("fieldsView", () => {
  it("reads each field by its model key into its policy key, in the descriptor's order, absent ones null", () => {
    const view = fieldsView(FIELDS, { retentionSeconds: 60, name: "a", other: "not a field" });
    expect(view).toEqual({ name: "a", retention: 60, tags: null });
    expect(Object.keys(view)).toEqual(["name", "retention", "tags"]);
  });

  it("sees only the record's own enumerable fields, as a copy of the record would: never an inherited or hidden one", () => {
    const inherited = Object.create({ name: "from the prototype", tags: ["x"] }) as object;
    expect(fieldsView(FIELDS, inherited)).toEqual({ name: null, retention: null, tags: null });
    const hidden = Object.defineProperty({ retentionSeconds: 5 }, "name", { value: "hidden", enumerable: false });
    expect(fieldsView(FIELDS, hidden)).toEqual({ name: null, retention: 5, tags: null });
    const polluted = Object.create(null) as Record<string, unknown>;
    polluted.tags = ["a", undefined];
    expect(fieldsView(FIELDS, polluted)).toEqual({ name: null, retention: null, tags: ["a", null] });
  });
});
