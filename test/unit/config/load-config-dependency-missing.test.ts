import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigLoadError } from "../../../src/v1.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
  vi.doUnmock("node:module");
  vi.resetModules();
});

describe("when a package that evaluates policies cannot be loaded", () => {
  it.each(["jiti", "esbuild"])("names the missing package %s and the policy it could not evaluate", async (name) => {
    vi.resetModules();
    vi.doMock("node:module", async (importOriginal) => {
      const actual = await importOriginal<typeof import("node:module")>();
      const createRequire = (from: string | URL): NodeJS.Require => {
        const real = actual.createRequire(from);
        const missing = (id: string): unknown => {
          if (id === name) throw new Error(`Cannot find module '${name}'`);
          return real(id);
        };
        return Object.assign(missing, real);
      };
      return { ...actual, createRequire, default: { ...actual, createRequire } };
    });
    const { loadConfigFromFile } = await import("../../../src/config/load-config.js");
    tree = createTempTree({ ".git/": "", "svc.ts": "export default {};" });

    const err: unknown = await loadConfigFromFile({ cwd: tree.root, stopAt: tree.root }).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect((err as Error).constructor.name).toBe(ConfigLoadError.name);
    const loadError = err as ConfigLoadError;
    expect(loadError.message).toContain(`the package "${name}" could not be loaded`);
    expect(loadError.message).toContain(tree.path("svc.ts"));
    expect(loadError.message).toContain("npm ci");
    expect(loadError.details).toEqual({ file: tree.path("svc.ts"), package: name });
    expect(loadError.cause).toBeInstanceOf(Error);
  });
});
