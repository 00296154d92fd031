import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";

/** Whether pako's compressor has been loaded in this process (it is required, not imported). */
const pakoLoaded = (): boolean => Object.keys(createRequire(import.meta.url).cache).some((path) => path.replaceAll("\\", "/").includes("/node_modules/pako/"));

const loads = vi.hoisted(() => ({ esbuild: 0, jszip: 0 }));

vi.mock("esbuild", async (importOriginal) => {
  loads.esbuild++;
  return importOriginal();
});
vi.mock("jszip", async (importOriginal) => {
  loads.jszip++;
  return importOriginal();
});

describe("lazy loading of esbuild, pako and jszip", () => {
  it("importing svc-config/v1 and svc-config loads none of them", async () => {
    const v1 = await import("../../../src/v1.js");
    await import("../../../src/index.js");
    expect(typeof v1.buildFunctionBundle).toBe("function");
    expect(loads).toEqual({ esbuild: 0, jszip: 0 });
    expect(pakoLoaded()).toBe(false);
  });

  it("resolving, inspecting, pulling and planning a function-less policy load none of them", async () => {
    const v1 = await import("../../../src/v1.js");
    const { fixturePlatform, loadRoutes } = await import("../inspect/fixture-platform.js");
    const { api } = fixturePlatform(loadRoutes("full-branch"));
    const ids = { projectId: "calm-river-123456", branchId: "br-preview-654321", api };
    v1.resolvePolicy(v1.defineConfig({ auth: true }), { name: "main", exists: true, isDefault: true });
    await v1.inspect(ids);
    await v1.pullConfig(ids);
    await v1.plan(v1.defineConfig({ buckets: { uploads: {} } }), ids);
    expect(loads).toEqual({ esbuild: 0, jszip: 0 });
    expect(pakoLoaded()).toBe(false);
  });

  it("loading a policy file (compiled by esbuild's transform, required directly) loads neither ZIP module", async () => {
    const v1 = await import("../../../src/v1.js");
    const policyFile = fileURLToPath(new URL("../../../fixtures/policies/minimal.ts", import.meta.url));
    const { config } = await v1.loadConfigFromFile({ path: policyFile });
    await v1.loadConfigFromFile({ path: policyFile });
    v1.resolvePolicy(config, { name: "main", exists: true, isDefault: true });
    expect(loads.jszip).toBe(0);
    expect(pakoLoaded()).toBe(false);
  });

  it("bundling a function loads esbuild once and pako, not jszip (it only reads archives back)", async () => {
    const { buildFunctionBundle } = await import("../../../src/v1.js");
    const source = fileURLToPath(new URL("../../../fixtures/functions/dir-entry", import.meta.url));
    const fn = {
      slug: "lazy",
      name: "lazy",
      sourcePath: source,
      source,
      env: {},
      runtime: "nodejs24" as const,
      bundler: "esbuild" as const,
      sourcemap: false,
      customDomains: [],
    };
    expect(loads).toEqual({ esbuild: 0, jszip: 0 });
    expect(pakoLoaded()).toBe(false);
    await buildFunctionBundle(fn);
    await buildFunctionBundle(fn);
    expect(loads).toEqual({ esbuild: 1, jszip: 0 });
    expect(pakoLoaded()).toBe(true);
  });
});
