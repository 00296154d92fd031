import { describe, expect, it } from "vitest";
import { readNeedsOf, unionOfNeeds } from "../../../src/inspect/read-needs.js";
import { KIND_READS, readNeedsForPolicy } from "../../../src/kinds/modules.js";
import { policyWith } from "../../helpers/engine-state.js";

describe("the read sources several kinds need", () => {
  it("reads a source once when kinds ask it with the same parameter", () => {
    const needs = unionOfNeeds([
      { kind: "auth", needs: { auth: true, databases: true } },
      { kind: "dataApi", needs: { databases: true, dataApi: "app" } },
      { kind: "widget", needs: { dataApi: "app" } },
    ]);
    expect(needs).toEqual({ auth: true, databases: true, dataApi: "app" });
  });

  it("merges the items several kinds name, each once, in the order first asked", () => {
    const needs = unionOfNeeds([
      { kind: "bucket", needs: { bucketObjects: ["media", "avatars"] } },
      { kind: "widget", needs: { bucketObjects: ["avatars", "logs"] } },
    ]);
    expect(needs).toEqual({ bucketObjects: ["media", "avatars", "logs"] });
  });

  it("refuses two kinds asking one source with different parameters, naming both kinds and both parameters", () => {
    const union = () => unionOfNeeds([
      { kind: "dataApi", needs: { dataApi: "neondb" } },
      { kind: "auth", needs: { auth: true } },
      { kind: "widget", needs: { dataApi: "app" } },
    ]);
    expect(union).toThrow(/kinds dataApi and widget need the read source "dataApi" with different parameters \("neondb" and "app"\)/);
  });

  it("refuses a kind whose needs disagree with the registry's for the same policy", () => {
    const policy = policyWith({ dataApi: { state: "enabled", database: "app", authProvider: "external", settings: {} } });
    expect(readNeedsForPolicy(policy)).toMatchObject({ dataApi: "app" });
    const other = { kind: "widget", needs: () => ({ dataApi: "neondb" }), slice: () => ({}) };
    expect(() => readNeedsOf([...KIND_READS, other], policy)).toThrow(/kinds dataApi and widget/);
  });
});
