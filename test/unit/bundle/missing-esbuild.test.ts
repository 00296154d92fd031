import { describe, expect, it, vi } from "vitest";
import { buildFunctionBundle } from "../../../src/bundle/index.js";
import { BundleError } from "../../../src/errors/index.js";
import { fixturePath, functionConfig } from "./function-config.js";

vi.mock("esbuild", () => {
  throw new Error("Cannot find package 'esbuild'");
});

describe("esbuild missing", () => {
  it("fails the esbuild path with an install hint naming the function", async () => {
    const err = await buildFunctionBundle(functionConfig("hint", fixturePath("dir-entry"))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BundleError);
    expect((err as BundleError).message).toContain("function hint: esbuild could not be loaded");
    expect((err as BundleError).message).toContain("install it with `npm install esbuild`");
  });

  it("still ships prebuilt functions, which never need esbuild", async () => {
    const zip = await buildFunctionBundle(functionConfig("pre", fixturePath("prebuilt"), { bundler: "none" }));
    expect(zip.byteLength).toBeGreaterThan(0);
  });
});
