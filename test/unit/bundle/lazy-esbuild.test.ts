/**
 * Hostile row for the esbuild loader: an import of esbuild that gives an empty instance of the
 * package (seen with esbuild installed through symlinks, pnpm's layout, once another caller had
 * required it by its real path) must still give a working `build`, taken from `require`.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("esbuild", () => ({ build: undefined, default: {} }));

describe("loading esbuild", () => {
  it("takes esbuild from require when its import gives an instance without build", async () => {
    const { loadEsbuild } = await import("../../../src/bundle/lazy-modules.js");
    const esbuild = await loadEsbuild();
    expect(typeof esbuild.build).toBe("function");
    const result = await esbuild.build({ stdin: { contents: "export const x = 1;" }, write: false, format: "esm" });
    expect(result.outputFiles?.[0]?.text).toContain("x = 1");
  });
});
