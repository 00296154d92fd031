import { describe, expect, it } from "vitest";
import { makeChange } from "../../../src/diff/change-builder.js";
import { orderChanges } from "../../../src/diff/order-changes.js";
import { isPlatformError } from "../../../src/errors/index.js";
import { rankOf } from "../../../src/kinds/list.js";

const bucket = (action: "create" | "delete", name: string, dependsOn: string[] = []) =>
  makeChange({ address: `bucket.${name}`, kind: "bucket", action, class: "additive", fields: ["*"], before: null, after: null, reason: "", dependsOn, op: { type: "bucket-delete", name }, planned: {} });

describe("orderChanges", () => {
  it("puts a change after its dependencies even against the tie-breaks", () => {
    const ordered = orderChanges([bucket("create", "a", ["create:bucket.b"]), bucket("create", "b")], rankOf);
    expect(ordered.map((c) => c.change.id)).toEqual(["create:bucket.b", "create:bucket.a"]);
  });

  it("orders deletes first, then by identifier in code-point order", () => {
    const ordered = orderChanges([bucket("create", "b"), bucket("create", "B"), bucket("delete", "z")], rankOf);
    expect(ordered.map((c) => c.change.id)).toEqual(["delete:bucket.z", "create:bucket.B", "create:bucket.b"]);
  });

  it("reports a cycle as an error instead of hanging", () => {
    let caught: unknown;
    try {
      orderChanges([bucket("create", "a", ["create:bucket.b"]), bucket("create", "b", ["create:bucket.a"])], rankOf);
    } catch (err) {
      caught = err;
    }
    expect(isPlatformError(caught)).toBe(true);
    expect((caught as Error).message).toContain("create:bucket.a, create:bucket.b");
  });
});
