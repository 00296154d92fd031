import { describe, expect, it } from "vitest";
import { sha256Of } from "../../../src/diff/canonical-json.js";
import { digestsOf } from "../../../src/engine/change-digests.js";
import { diffState } from "../../../src/kinds/modules.js";
import type { PlannedChange } from "../../../src/model/planned-change.js";
import { NOW, liveWith, policyWith } from "../../helpers/engine-state.js";

const live = liveWith({ dataApi: { enabled: true, database: "neondb", settings: { dbSchemas: ["public"], dbMaxRows: 10 } } });
const dataApi = (dbSchemas: string[]) => ({ state: "enabled" as const, database: "neondb", authProvider: "builtin" as const, settings: { dbSchemas, dbMaxRows: 10 } });
const isDataApiUpdate = (c: PlannedChange | undefined): c is Extract<PlannedChange, { op: { type: "data-api-update" } }> => c?.op.type === "data-api-update";
const updateOf = (dbSchemas: string[]) => {
  const [update] = diffState(policyWith({ dataApi: dataApi(dbSchemas) }), live, { now: NOW, functionTags: new Map(), allowDataLoss: false }).changes;
  if (!isDataApiUpdate(update)) throw new Error("no Data API update planned");
  return update;
};

describe("the digests a saved plan commits to", () => {
  it("hash a Data API update with its op as saved plans have always held it: the changed settings in wire names", () => {
    const update = updateOf(["api", "public"]);
    const saved = { change: update.change, op: { type: "data-api-update", database: "neondb", settings: { db_schemas: ["api", "public"] } } };
    expect(digestsOf([update])).toEqual({ changesDigest: sha256Of([saved]), changeDigests: { "update:dataApi": sha256Of(saved) } });
  });

  it("change with the planned values a handler sends, even where the change's view is the same", () => {
    const update = updateOf(["api", "public"]);
    const edited = { ...update, planned: { dbSchemas: ["api"] } };
    expect(digestsOf([edited]).changeDigests["update:dataApi"]).not.toBe(digestsOf([update]).changeDigests["update:dataApi"]);
  });
});
