import { describe, expect, it } from "vitest";
import { existingIds, makeChange } from "../../../src/diff/change-builder.js";
import type { PlannedChange } from "../../../src/model/planned-change.js";

const bucket = (name: string): PlannedChange =>
  makeChange({ address: `bucket.${name}`, kind: "bucket", action: "create", class: "additive", fields: ["*"], before: null, after: { access: "private" }, reason: "", op: { type: "bucket-create", name }, planned: { access: "private" } });

describe("existingIds", () => {
  it("keeps the asked ids that the list holds, in the order asked, as the list grows", () => {
    const changes: PlannedChange[] = [bucket("a")];
    expect(existingIds(changes, ["create:bucket.b", "create:bucket.a"])).toEqual(["create:bucket.a"]);
    changes.push(bucket("b"), bucket("c"));
    expect(existingIds(changes, ["create:bucket.c", "create:bucket.x", "create:bucket.b"])).toEqual(["create:bucket.c", "create:bucket.b"]);
  });

  it("sees a list changed other than by appending: an entry removed, replaced or moved", () => {
    const changes: PlannedChange[] = [bucket("a"), bucket("b")];
    expect(existingIds(changes, ["create:bucket.a", "create:bucket.b"])).toEqual(["create:bucket.a", "create:bucket.b"]);
    changes.pop();
    expect(existingIds(changes, ["create:bucket.a", "create:bucket.b"])).toEqual(["create:bucket.a"]);
    changes.push(bucket("c"));
    expect(existingIds(changes, ["create:bucket.b", "create:bucket.c"])).toEqual(["create:bucket.c"]);
    changes[1] = bucket("d");
    expect(existingIds(changes, ["create:bucket.c", "create:bucket.d"])).toEqual(["create:bucket.d"]);
    changes.splice(0, 2, bucket("e"), bucket("d"));
    expect(existingIds(changes, ["create:bucket.a", "create:bucket.e", "create:bucket.d"])).toEqual(["create:bucket.e", "create:bucket.d"]);
  });

  it("answers each list for itself", () => {
    const one = [bucket("a")];
    const other = [bucket("b")];
    expect(existingIds(one, ["create:bucket.a", "create:bucket.b"])).toEqual(["create:bucket.a"]);
    expect(existingIds(other, ["create:bucket.a", "create:bucket.b"])).toEqual(["create:bucket.b"]);
  });
});
