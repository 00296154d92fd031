import { describe, expect, it } from "vitest";
import { declaredFunctionEnvs } from "../../../src/cli/commands/target-setup.js";

describe("declaredFunctionEnvs (the env values the CLI's scrubber learns from a loaded policy)", () => {
  it.each([
    ["the top-level functions", { functions: { a: { env: { X: "top-value-1" } } } }, [{ X: "top-value-1" }]],
    ["the deprecated preview.functions", { preview: { functions: { a: { env: { X: "preview-value-1" } } } } }, [{ X: "preview-value-1" }]],
    [
      "both homes at once (validation refuses the pair, the values are learnt anyway)",
      { functions: { a: { env: { X: "top-value-1" } } }, preview: { functions: { b: { env: { Y: "preview-value-1" } } } } },
      [{ X: "top-value-1" }, { Y: "preview-value-1" }],
    ],
    ["non-string values skipped", { preview: { functions: { a: { env: { X: 1, Y: "kept-value" } } } } }, [{ Y: "kept-value" }]],
    ["a preview that is not an object", { preview: "yes", functions: null }, []],
    ["a function that is null", { preview: { functions: { a: null } } }, []],
    ["no policy object", undefined, []],
  ])("reads %s", (_label, policy, expected) => {
    expect(declaredFunctionEnvs(policy)).toEqual(expected);
  });
});
