import { describe, expect, it } from "vitest";
import { sha256Of } from "../../../src/diff/canonical-json.js";
import { digestInSlices, digestsOf } from "../../../src/engine/change-digests.js";
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

  it("of a list are the hash of the whole list's canonical JSON and of each change's, however the work was split", async () => {
    const first = updateOf(["api", "public"]);
    const second = { ...updateOf(["api"]), change: { ...updateOf(["api"]).change, id: "update:dataApi#2" } };
    const savedOf = (c: typeof first, dbSchemas: string[]) => ({ change: c.change, op: { type: "data-api-update", database: "neondb", settings: { db_schemas: dbSchemas } } });
    const expected = {
      changesDigest: sha256Of([savedOf(first, ["api", "public"]), savedOf(second, ["api"])]),
      changeDigests: { "update:dataApi": sha256Of(savedOf(first, ["api", "public"])), "update:dataApi#2": sha256Of(savedOf(second, ["api"])) },
    };
    expect(digestsOf([first, second])).toEqual(expected);
    // Sliced to completion in idle turns, or taken over part way by digestsOf: the same digests.
    const sliced = [first, second];
    digestInSlices(sliced);
    for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(digestsOf(sliced)).toEqual(expected);
    const interrupted = [first, second];
    digestInSlices(interrupted);
    await new Promise((resolve) => setImmediate(resolve));
    expect(digestsOf(interrupted)).toEqual(expected);
    expect(digestsOf([])).toEqual({ changesDigest: sha256Of([]), changeDigests: {} });
  });
});
