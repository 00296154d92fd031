import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { forbiddenEdges, importCycles, kindFolderOf, layerOf, readImportGraph } from "./import-graph.js";

const SRC = fileURLToPath(new URL("../../../src/", import.meta.url));
const edges = readImportGraph(SRC);

describe("the import graph of src/", () => {
  it("is read from the sources (static, type-only and lazy imports)", () => {
    expect(edges.some((e) => e.from === "engine/prepare-plan.ts" && e.to === "kinds/modules.ts")).toBe(true);
    expect(edges.some((e) => e.from === "apply/handlers/index.ts" && e.to === "model/planned-change.ts")).toBe(true);
    expect(edges.some((e) => e.from.startsWith("cli/") && layerOf(e.to) === "emulator" && e.dynamic)).toBe(true);
  });

  it("follows the documented direction (cli → engine → inspect, apply → diff, bundle → api, config → model, errors, rules)", () => {
    expect(forbiddenEdges(edges)).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it("lets the CLI and the emulator use the function host, which reaches only errors/ and rules/", () => {
    expect(forbiddenEdges([
      { from: "cli/dev/dev-server.ts", to: "runtime/index.ts", dynamic: false },
      { from: "emulator/functions/runner.ts", to: "runtime/index.ts", dynamic: false },
      { from: "runtime/function-process.ts", to: "rules/visible-text.ts", dynamic: false },
    ])).toEqual([]);
    expect(edges.some((e) => e.from.startsWith("runtime/") && layerOf(e.to) === "rules")).toBe(true);
  });

  it("has nothing that imports cli/ (only cli itself)", () => {
    expect(edges.filter((e) => layerOf(e.to) === "cli" && layerOf(e.from) !== "cli").map((e) => e.from)).toEqual([]);
  });
});

describe("the kind folders (src/kinds/<kind>/)", () => {
  it("are read file by file as the stage each file serves", () => {
    expect(edges.some((e) => e.from === "kinds/bucket/stages.ts" && e.to === "kinds/bucket/diff.ts")).toBe(true);
    expect(edges.some((e) => e.from === "kinds/bucket/index.ts" && e.to === "kinds/bucket/stages.ts" && e.dynamic)).toBe(true);
    expect(["fields", "policy", "wire", "read", "pull", "diff", "apply", "index", "stages"].map((f) => layerOf(`kinds/bucket/${f}.ts`))).toEqual([
      "model/kinds", "config", "api/wire", "inspect", "inspect", "diff", "apply/handlers", "kinds/light", "kinds/modules",
    ]);
    expect(layerOf("kinds/index.ts")).toBe("kinds");
    expect(layerOf("kinds/list.ts")).toBe("kinds/light");
    expect(layerOf("kinds/modules.ts")).toBe("kinds/modules");
  });

  it("keep a kind's light module and the registry's list off its stages, which it may only import lazily", () => {
    const bad = forbiddenEdges([
      { from: "kinds/bucket/index.ts", to: "kinds/bucket/stages.ts", dynamic: false },
      { from: "kinds/bucket/index.ts", to: "kinds/bucket/diff.ts", dynamic: false },
      { from: "kinds/list.ts", to: "kinds/modules.ts", dynamic: false },
      { from: "kinds/list.ts", to: "diff/diff-state.ts", dynamic: false },
    ]);
    expect(bad).toHaveLength(4);
    expect(forbiddenEdges([{ from: "kinds/bucket/index.ts", to: "kinds/bucket/stages.ts", dynamic: true }])).toEqual([]);
  });

  it("refuse a kind's diff reaching the API or a handler, a kind importing another undeclared, a file of no known stage, and the registry importing a kind", () => {
    const bad = forbiddenEdges([
      { from: "kinds/bucket/diff.ts", to: "api/platform-api.ts", dynamic: false },
      { from: "kinds/bucket/diff.ts", to: "kinds/bucket/apply.ts", dynamic: false },
      { from: "kinds/bucket/apply.ts", to: "kinds/function/fields.ts", dynamic: false },
      { from: "kinds/bucket/helpers.ts", to: "model/plan.ts", dynamic: false },
      { from: "kinds/index.ts", to: "kinds/bucket/fields.ts", dynamic: false },
    ]);
    expect(bad).toHaveLength(5);
    expect(bad.find((line) => line.startsWith("kinds/bucket/apply.ts"))).toContain("does not declare a dependency on function");
  });

  it("give every kind's diff only its own fields from its folder, and no other kind's file", () => {
    const diffs = edges.filter((e) => /^kinds\/[^/]+\/diff\.ts$/.test(e.from));
    expect(new Set(diffs.map((e) => e.from)).size).toBeGreaterThanOrEqual(8);
    const strayKindImports = diffs.filter((e) => e.to.startsWith("kinds/") && e.to !== e.from.replace(/diff\.ts$/, "fields.ts") && e.to !== "kinds/index.ts");
    expect(strayKindImports).toEqual([]);
    expect(diffs.filter((e) => !["kinds", "model", "model/kinds", "rules", "errors", "diff"].includes(layerOf(e.to)))).toEqual([]);
  });

  it("refuse a kind's diff reading its own policy, wire, read or pull file, and let its handler call the API", () => {
    expect(forbiddenEdges(["policy", "wire", "read", "pull"].map((f) => ({ from: "kinds/role/diff.ts", to: `kinds/role/${f}.ts`, dynamic: false })))).toHaveLength(4);
    expect(forbiddenEdges([
      { from: "kinds/role/apply.ts", to: "api/platform-api.ts", dynamic: false },
      { from: "kinds/role/apply.ts", to: "kinds/role/fields.ts", dynamic: false },
    ])).toEqual([]);
  });

  it("keep the views on the kinds' light modules: no view imports the registry's stages", () => {
    expect(edges.some((e) => e.from.startsWith("cli/views/") && e.to === "kinds/list.ts")).toBe(true);
    const bad = forbiddenEdges([
      { from: "cli/views/json-plan.ts", to: "kinds/modules.ts", dynamic: false },
      { from: "cli/views/text-result.ts", to: "kinds/function/stages.ts", dynamic: true },
    ]);
    expect(bad).toHaveLength(2);
    expect(forbiddenEdges([{ from: "cli/commands/plan-command.ts", to: "kinds/modules.ts", dynamic: false }])).toEqual([]);
  });

  it("let the adapter interface and the wire schemas reach a kind folder only through its wire.ts", () => {
    const intoKinds = edges.filter((e) => ["api", "api/wire"].includes(layerOf(e.from)) && kindFolderOf(e.from) === undefined && kindFolderOf(e.to) !== undefined);
    expect(intoKinds.length).toBeGreaterThanOrEqual(4);
    expect(intoKinds.filter((e) => !e.to.endsWith("/wire.ts"))).toEqual([]);
    const bad = forbiddenEdges([
      { from: "api/wire/common.ts", to: "kinds/compute/fields.ts", dynamic: false },
      { from: "api/platform-api.ts", to: "kinds/bucket/policy.ts", dynamic: false },
    ]);
    expect(bad).toHaveLength(2);
    expect(bad[0]).toContain("reaches a kind folder only through its wire.ts");
    expect(forbiddenEdges([
      { from: "api/wire/index.ts", to: "kinds/dataApi/wire.ts", dynamic: false },
      { from: "api/platform-api.ts", to: "kinds/compute/wire.ts", dynamic: false },
      { from: "kinds/role/wire.ts", to: "api/wire/fields.ts", dynamic: false },
    ])).toEqual([]);
  });

  it("let a kind's files use their own fields and their stage's helpers", () => {
    expect(forbiddenEdges([
      { from: "kinds/bucket/diff.ts", to: "kinds/bucket/fields.ts", dynamic: false },
      { from: "kinds/bucket/diff.ts", to: "diff/change-builder.ts", dynamic: false },
      { from: "kinds/bucket/apply.ts", to: "apply/execution-context.ts", dynamic: false },
      { from: "kinds/bucket/wire.ts", to: "api/wire/common.ts", dynamic: false },
      { from: "emulator/routes/storage.ts", to: "kinds/bucket/wire.ts", dynamic: false },
    ])).toEqual([]);
  });
});

describe("the checks themselves", () => {
  it("flag an edge against the direction, a diff import of config, and a static emulator import from the CLI", () => {
    const bad = forbiddenEdges([
      { from: "model/plan.ts", to: "engine/options.ts", dynamic: false },
      { from: "diff/services.ts", to: "config/policy-types.ts", dynamic: false },
      { from: "apply/handlers/data-api.ts", to: "diff/services.ts", dynamic: false },
      { from: "cli/commands/emulator-command.ts", to: "emulator/index.ts", dynamic: false },
      { from: "emulator/store/world.ts", to: "api/transport.ts", dynamic: false },
      { from: "runtime/function-process.ts", to: "config/define-config.ts", dynamic: false },
      { from: "functions/trigger-delivery.ts", to: "errors/platform-error.ts", dynamic: false },
    ]);
    expect(bad).toHaveLength(7);
  });

  it("find a cycle through three files but not through a lazy import", () => {
    const cycle = [
      { from: "a.ts", to: "b.ts", dynamic: false },
      { from: "b.ts", to: "c.ts", dynamic: false },
      { from: "c.ts", to: "a.ts", dynamic: false },
    ];
    expect(importCycles(cycle)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(importCycles(cycle.map((e, i) => ({ ...e, dynamic: i === 2 })))).toEqual([]);
  });
});
