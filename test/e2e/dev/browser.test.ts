/**
 * Chromium (the system's, through playwright-core) loads a function served by `svc dev` and
 * shows what it answered, server-sent events included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/harness.js";
import { launchBrowser, SKIP_BROWSER } from "../instant/browser.js";
import { devProject, startDev, type DevProject, type DevRun } from "./dev-harness.js";

const PAGE = `export default function (request: Request): Response {
  const url = new URL(request.url);
  if (url.pathname === "/events") {
    const enc = new TextEncoder();
    return new Response(new ReadableStream({ start(c) { c.enqueue(enc.encode("data: streamed hello\\n\\n")); } }), { headers: { "content-type": "text/event-stream" } });
  }
  const html = '<!doctype html><title>svc dev</title><h1 id="greeting">Hello from ' + url.pathname + '</h1><p id="sse"></p>' +
    '<script>new EventSource("/events").onmessage = (e) => { document.getElementById("sse").textContent = e.data; };</script>';
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}
`;

describe.skipIf(SKIP_BROWSER)("a function served by svc dev in Chromium", () => {
  let project: DevProject;
  let dev: DevRun;
  let url = "";

  beforeAll(async () => {
    await ensureBuilt();
    project = devProject({ "page.ts": PAGE });
    dev = startDev(["--source", "page.ts", "--no-branch-env"], { cwd: project.dir });
    await dev.waitForOutput(/Watching for changes/);
    url = dev.stdout().match(/page\s+(http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? "";
  }, 120_000);

  afterAll(async () => {
    await dev?.stop();
    project?.remove();
  });

  it("shows the function's page and the events it streams", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${url}/from-chromium`);
      expect(await page.textContent("#greeting")).toBe("Hello from /from-chromium");
      await page.waitForSelector("#sse:has-text('streamed hello')");
      expect(await page.textContent("#sse")).toBe("streamed hello");
    } finally {
      await browser.close();
    }
    await dev.waitForOutput(/\[page\] GET \/from-chromium 200/);
  }, 60_000);
});
