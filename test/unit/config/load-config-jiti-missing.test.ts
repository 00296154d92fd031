import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigLoadError } from "../../../src/v1.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";

vi.mock("jiti", () => {
  throw new Error("Cannot find package 'jiti' imported from svc-config");
});

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

describe("when jiti cannot be loaded", () => {
  it("names the missing package and the policy it could not evaluate", async () => {
    tree = createTempTree({ ".git/": "", "svc.ts": "export default {};" });
    const err: unknown = await loadConfigFromFile({ cwd: tree.root, stopAt: tree.root }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigLoadError);
    const loadError = err as ConfigLoadError;
    expect(loadError.message).toContain('the package "jiti" could not be loaded');
    expect(loadError.message).toContain(tree.path("svc.ts"));
    expect(loadError.message).toContain("npm ci");
    expect(loadError.details).toEqual({ file: tree.path("svc.ts"), package: "jiti" });
    expect(loadError.cause).toBeInstanceOf(Error);
  });
});
