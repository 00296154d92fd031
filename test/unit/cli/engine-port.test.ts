import { describe, expect, it } from "vitest";
import type { EnginePort } from "../../../src/cli/engine-port.js";
import * as v1 from "../../../src/v1.js";

describe("the engine port", () => {
  it("is satisfied by the public surface, so the CLI calls the real signatures", () => {
    const port: EnginePort = v1;
    const names: (keyof EnginePort)[] = [
      "loadConfigFromFile", "resolvePolicy", "buildFunctionBundle", "plan", "pushConfig", "applyPlan", "toSavedPlan",
      "createBranch", "inspect", "pullConfig", "renderPolicySource", "createPlatformApi",
    ];
    for (const name of names) expect(typeof port[name]).toBe("function");
  });
});
