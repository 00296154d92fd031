import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { DevOutput } from "../../../../src/cli/dev/dev-output.js";
import { createTempTree } from "../../../helpers/temp-dir.js";

const tree = createTempTree({
  "node_modules/.cache/svc-config/dev/2147483646/hello/1/index.mjs": "left by a killed run",
  [`node_modules/.cache/svc-config/dev/${process.pid}/hello/1/index.mjs`]: "a live run's",
  "node_modules/.cache/svc-config/dev/notes/keep.txt": "not a run",
});
afterAll(() => tree.remove());

describe("svc dev's output directory", () => {
  it("removes what runs whose process is gone left behind, and nothing else", async () => {
    await new DevOutput(tree.root, "1").removeStale();
    expect(existsSync(tree.path("node_modules/.cache/svc-config/dev/2147483646"))).toBe(false);
    expect(existsSync(tree.path(`node_modules/.cache/svc-config/dev/${process.pid}/hello/1/index.mjs`))).toBe(true);
    expect(existsSync(tree.path("node_modules/.cache/svc-config/dev/notes/keep.txt"))).toBe(true);
  });
});
