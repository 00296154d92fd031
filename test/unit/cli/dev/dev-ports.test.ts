import { describe, expect, it } from "vitest";
import { assignPorts } from "../../../../src/cli/dev/dev-ports.js";

const busy = (...ports: number[]) => async (port: number) => !ports.includes(port);

describe("svc dev's ports", () => {
  it("gives dev.port to its function and the first free ports from 8787 to the others, in slug order", async () => {
    const ports = await assignPorts([{ slug: "zeta" }, { slug: "api", devPort: 8788 }, { slug: "beta" }], { isFree: busy(8787) });
    expect([...ports]).toEqual([["api", 8788], ["beta", 8789], ["zeta", 8790]]);
  });

  it("skips ports held by running functions", async () => {
    const ports = await assignPorts([{ slug: "new" }], { held: new Set([8787, 8788]), isFree: busy() });
    expect(ports.get("new")).toBe(8789);
  });

  it.each([
    ["another process", [{ slug: "api", devPort: 3000 }], busy(3000), "Function api: port 3000 (its dev.port) is in use by another process."],
    ["a running function", [{ slug: "api", devPort: 8787 }], busy(), "Function api: port 8787 (its dev.port) is in use by another process."],
    ["another function's dev.port", [{ slug: "a", devPort: 3000 }, { slug: "b", devPort: 3000 }], busy(), "Function b: port 3000 (its dev.port) is in use by function a (the same dev.port)."],
  ])("refuses a dev.port taken by %s, naming the function, the port and the fix", async (_by, requests, isFree, message) => {
    const err = await assignPorts(requests, { held: new Set([8787]), isFree }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(message);
    expect((err as { hint: string }).hint).toMatch(/functions\.(api|b)\.dev\.port/);
  });
});
