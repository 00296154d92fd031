import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { forbiddenEdges, importCycles, layerOf, readImportGraph } from "./import-graph.js";

const SRC = fileURLToPath(new URL("../../../src/", import.meta.url));
const edges = readImportGraph(SRC);

describe("the import graph of src/", () => {
  it("is read from the sources (static, type-only and lazy imports)", () => {
    expect(edges.some((e) => e.from === "engine/prepare-plan.ts" && e.to === "diff/diff-state.ts")).toBe(true);
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
