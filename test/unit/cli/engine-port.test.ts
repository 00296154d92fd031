import { describe, expect, it } from "vitest";
import { loadEngine } from "../../../src/cli/engine-port.js";
import * as v1 from "../../../src/v1.js";

describe("the engine the CLI loads", () => {
  it("hands out the public surface's own functions", async () => {
    const engine = await loadEngine();
    expect(engine.plan).toBe(v1.plan);
    expect(engine.pushConfig).toBe(v1.pushConfig);
    expect(engine.createPlatformApi).toBe(v1.createPlatformApi);
  });

  it("names a function missing from the build as an internal error with the fix, instead of calling undefined", async () => {
    const engine = (await loadEngine()) as unknown as Record<string, unknown>;
    let thrown: unknown;
    try {
      engine["planEverything"];
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({
      code: "CLI_INTERNAL",
      message: "This build of svc-config has no planEverything; the engine is incomplete.",
      hint: "Rebuild with npm run build, or report it.",
    });
  });

  it("is not a thenable, so awaiting it again gives the engine back", async () => {
    const engine = await loadEngine();
    expect(await Promise.resolve(engine)).toBe(engine);
  });

  it("can be printed: the module's own symbols pass through", async () => {
    const engine = await loadEngine();
    expect(Object.prototype.toString.call(engine)).toBe("[object Module]");
  });
});
