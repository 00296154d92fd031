/**
 * Deployed functions at the edges of their listener's life, over real HTTP: called the moment the
 * deployment is reported, redeployed while a call runs, deleted before anyone called them (the
 * port then answers nothing of theirs), many at once. The emulator keeps answering throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, isAlive } from "../dev/dev-harness.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { branchPath, deployModule } from "./functions-helpers.js";
import { client, deploy, startTestEmulator, zipOf, type TestClient } from "./helpers.js";

/** A function naming its version; `/slow` answers after 400 ms, `/slower` after 2.5 s (longer than a stop's grace). */
function versioned(version: string): string {
  return `
export default {
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/slow") await new Promise((r) => setTimeout(r, 400));
    if (path === "/slower") await new Promise((r) => setTimeout(r, 2500));
    if (path === "/pid") return new Response(String(process.pid));
    if (path === "/stream") return new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("first")); } }));
    return new Response(${JSON.stringify(version)});
  },
};
`;
}

/** What a call to `url` got: the body of a 2xx, the status otherwise, or the connection's error code. */
async function outcome(url: string): Promise<string> {
  try {
    const res = await fetch(url);
    const text = await res.text();
    return res.ok ? text : `HTTP ${res.status}`;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return `no answer (${cause?.code ?? String(err)})`;
  }
}

describe("functions at the edges of their listener's life", () => {
  let emu: RunningEmulator;
  let api: TestClient;

  beforeAll(async () => {
    emu = await startTestEmulator({ functions: { idleMs: 60_000 } });
    api = client(emu);
  }, 60_000);
  afterAll(() => emu?.close());

  it("answers the first call made the moment its deployment is reported, for each of 8 functions deployed at once", async () => {
    const urls = await Promise.all(Array.from({ length: 8 }, (_, i) => deployModule(emu, `fresh${i}`, versioned(`fresh${i}`))));

    expect(await Promise.all(urls.map((url) => outcome(url)))).toEqual(urls.map((_, i) => `fresh${i}`));
    expect(new Set(urls.map((url) => new URL(url).port)).size).toBe(8);
  }, 60_000);

  it.each([
    ["its first, while the process still starts", "cold", "slow"],
    ["one longer than a stop's grace", "warm", "slower"],
  ])("finishes a call running while the function is redeployed (%s), and the next call reaches the new version", async (_name, start, path) => {
    const slug = `swapped${start}`;
    const url = await deployModule(emu, slug, versioned("v1"));
    if (start === "warm") expect(await outcome(url)).toBe("v1");
    const running = outcome(`${url}${path}`);
    await new Promise((r) => setTimeout(r, 100));
    expect(await deployModule(emu, slug, versioned("v2"))).toBe(url);

    expect(await outcome(url)).toBe("v2");
    expect(await running).toBe("v1");
  }, 60_000);

  it("deleted before its first call, answers nothing of the function, and the emulator keeps serving the others", async () => {
    const path = `${branchPath(emu)}/functions/gone`;
    const url = await deployModule(emu, "gone", versioned("gone"));
    expect((await api.call("DELETE", path)).status).toBe(204);

    expect(await outcome(url)).not.toBe("gone");
    expect((await api.call("GET", path)).status).toBe(404);
    expect(await outcome(await deployModule(emu, "after", versioned("after")))).toBe("after");
  }, 60_000);

  it("deleted while its deployment is still being received, leaves no function and no listener behind", async () => {
    const path = `${branchPath(emu)}/functions/racing`;
    const zip = await zipOf({ "index.mjs": versioned("racing") });
    const [deployed] = await Promise.all([deploy(emu, `${path}/deployments`, { zip, runtime: "nodejs24" }), api.call("DELETE", path)]);
    await emu.settle();

    const fn = await api.call<{ function?: { invocation_url?: string } }>("GET", path);
    if (fn.status === 200) {
      // The delete came first (nothing to delete): the deployment then made the function, which answers.
      expect(deployed.status).toBe(201);
      expect(await outcome(fn.body.function?.invocation_url ?? "")).toBe("racing");
      expect((await api.call("DELETE", path)).status).toBe(204);
    } else {
      expect(fn.status).toBe(404);
    }
    expect(await outcome(await deployModule(emu, "later", versioned("later")))).toBe("later");
  }, 60_000);

  it("stops a redeployed version still answering a call when the emulator closes", async () => {
    const own = await startTestEmulator({ functions: { idleMs: 60_000 } });
    try {
      const url = await deployModule(own, "lingering", versioned("v1"));
      const pid = Number(await outcome(`${url}pid`));
      const running = outcome(`${url}slower`);
      await new Promise((r) => setTimeout(r, 100));
      await deployModule(own, "lingering", versioned("v2"));
      expect(isAlive(pid)).toBe(true);
      await own.close();
      await eventually(async () => isAlive(pid), (up) => !up);
      expect(await running).not.toBe("v1");
    } finally {
      await own.close();
    }
  }, 60_000);

  it("stops a redeployed version whose call streams without end, at the latest after the function timeout", async () => {
    const own = await startTestEmulator({ functions: { idleMs: 60_000, timeoutMs: 1500 } });
    try {
      const url = await deployModule(own, "streaming", versioned("v1"));
      const pid = Number(await outcome(`${url}pid`));
      const reader = (await fetch(`${url}stream`)).body?.getReader();
      expect(new TextDecoder().decode((await reader?.read())?.value)).toBe("first");
      await deployModule(own, "streaming", versioned("v2"));

      expect(await outcome(url)).toBe("v2");
      await eventually(async () => isAlive(pid), (up) => !up);
      await reader?.cancel().catch(() => undefined);
    } finally {
      await own.close();
    }
  }, 60_000);
});
