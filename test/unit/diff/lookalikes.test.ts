/**
 * Prune never swaps a live resource for a declared lookalike: a live name that reads as a
 * declared one (another Unicode form, Cyrillic or Greek look-alike letters) is a blocking
 * `NAME_LOOKALIKE` conflict instead of a delete, for every kind prune deletes by name.
 */
import { describe, expect, it } from "vitest";
import { diffState } from "../../../src/kinds/modules.js";
import { NOW, fnWith, liveFn, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";

const PRUNE_ALL = { functions: true, triggers: true, customDomains: true, buckets: true, roles: true, databases: true };
const TAG = tagWith("C0DE", "C0F1");

describe("prune and lookalike names", () => {
  it("keeps a live bucket spelled with a Cyrillic а when the policy declares the Latin spelling", () => {
    const result = diffState(
      policyWith({ buckets: [{ name: "media", access: "private" }], prune: PRUNE_ALL }),
      liveWith({ buckets: [{ name: "medi\u0430", access: "private" }], bucketHasObjects: new Map([["medi\u0430", true]]) }),
      { now: NOW, functionTags: new Map(), allowDataLoss: true },
    );
    expect(result.changes.map((c) => c.change.id)).toEqual(["create:bucket.media"]);
    expect(result.conflicts).toEqual([expect.objectContaining({ code: "NAME_LOOKALIKE", kind: "bucket", identifier: "medi\u0430", desired: "media", blocking: true })]);
    expect(result.conflicts[0]?.reason).toContain('"medi\\u{430}"');
  });

  it("keeps a live role and database whose names read as declared ones", () => {
    const owners = new Map([["neondb", "neondb_owner"], ["\u0430pp", "neondb_owner"]]);
    const result = diffState(
      policyWith({ roles: [{ name: "appuser", login: true }], databases: [{ name: "app", owner: "neondb_owner" }, { name: "neondb", owner: "neondb_owner" }], prune: PRUNE_ALL }),
      liveWith({
        databases: ["neondb", "\u0430pp"],
        databaseOwners: owners,
        roles: [{ name: "neondb_owner", login: true, protected: false }, { name: "\u0430ppuser", login: true, protected: false }],
      }),
      { now: NOW, functionTags: new Map(), allowDataLoss: true },
    );
    expect(result.changes.filter((c) => c.change.action === "delete")).toEqual([]);
    expect(result.conflicts.map((c) => `${c.code} ${c.kind}.${c.identifier}`).sort()).toEqual([
      "NAME_LOOKALIKE database.\u0430pp",
      "NAME_LOOKALIKE role.\u0430ppuser",
      "STILL_REFERENCED role.neondb_owner",
    ]);
  });

  it("keeps a live function whose slug reads as a declared one (rn for m)", () => {
    const result = diffState(
      policyWith({ functions: [fnWith("mail")], prune: PRUNE_ALL }),
      liveWith({ functions: [liveFn("rnail", TAG)], triggers: [], customDomains: [] }),
      { now: NOW, functionTags: new Map([["mail", TAG]]), allowDataLoss: false },
    );
    expect(result.changes.map((c) => c.change.id)).toEqual(["create:function.mail"]);
    expect(result.conflicts).toEqual([expect.objectContaining({ code: "NAME_LOOKALIKE", kind: "function", identifier: "rnail", desired: "mail" })]);
  });
});
