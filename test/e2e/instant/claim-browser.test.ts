import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { BrowserContext } from "playwright-core";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { KEYS, TWO_ACCOUNTS_SEED } from "../emulator/helpers.js";
import { launchBrowser, SKIP_BROWSER } from "./browser.js";
import { call, query } from "./harness.js";

let emu: RunningEmulator;
let browser: { context: BrowserContext; close: () => Promise<void> };

describe.skipIf(SKIP_BROWSER)("the claim page in Chromium", () => {
  beforeAll(async () => {
    emu = await startEmulator({ clock: "manual", seed: TWO_ACCOUNTS_SEED, timings: { claimTransferMs: 1000 } });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
  });

  async function management(path: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${emu.apiHost}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("signs in, transfers to an organization, the project appears for that organization only, and svc db claim reports it", async () => {
    const created = await call(`${emu.claimApiHost}/api/v1/database`, "POST", { ref: "browser-test" });
    expect(created.status).toBe(201);
    const id = String(created.body["id"]);
    const projectId = String(created.body["svc_project_id"]);
    const direct = String((created.body["emulator"] as Record<string, unknown>)["direct_connection_string"]);

    const page = await browser.context.newPage();
    await page.goto(String(created.body["claim_url"]));
    expect(await page.getByTestId("claim-status").textContent()).toBe("UNCLAIMED");

    await page.getByTestId("api-key-input").fill("svcemu_wrong_key_000000000000000000000000000");
    await page.getByTestId("sign-in").click();
    await expect.poll(() => page.getByTestId("claim-error").isVisible()).toBe(true);
    expect(await page.content()).not.toContain("svcemu_wrong_key");

    await page.getByTestId("api-key-input").fill(KEYS.alice);
    await page.getByTestId("sign-in").click();
    await page.getByTestId("owner-option-org-acme").check();
    await page.getByTestId("project-name-input").fill("browser-claimed");
    await page.getByTestId("transfer").click();
    await expect.poll(() => page.getByTestId("claim-status").textContent()).toBe("CLAIMING");
    expect((await call(`${emu.claimApiHost}/api/v1/database/${id}`, "GET")).body["status"]).toBe("CLAIMING");

    emu.state.clock.advance(1000);
    await page.getByTestId("claim-success").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("claim-status").textContent()).toBe("CLAIMED");
    expect(await page.locator("form").count()).toBe(0);

    const record = (await call(`${emu.claimApiHost}/api/v1/database/${id}`, "GET")).body;
    expect(record).toMatchObject({ status: "CLAIMED", connection_string: null, expires_at: null, svc_project_id: projectId });
    const project = await management(`/projects/${projectId}`, KEYS.acme);
    expect(project.status).toBe(200);
    expect(project.body["project"]).toMatchObject({ id: projectId, name: "browser-claimed", org_id: "org-acme", region_id: "aws-us-east-2" });
    expect((await management(`/projects/${projectId}`, KEYS.bob)).status).toBe(404);
    expect(await query(direct, "SELECT current_user = current_database() AS same")).toEqual([{ same: true }]);
    await page.close();

    const dir = mkdtempSync(join(tmpdir(), "svc-claim-cli-"));
    writeFileSync(join(dir, ".env"), `PUBLIC_POSTGRES_CLAIM_URL=${String(created.body["claim_url"])}\n`);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io = { stdout: { write: (t: string) => stdout.push(t) }, stderr: { write: (t: string) => stderr.push(t) }, stdin: Readable.from([]), env: {}, cwd: dir, now: () => Date.now() };
    expect(await main(["db", "claim"], { io, signal: new AbortController().signal })).toBe(0);
    expect(stdout.join("")).toBe(`Already claimed into project ${projectId}.\n`);
    expect(stderr.join("")).toBe("");
  }, 60_000);

  it("shows the not-found page for an expired id", async () => {
    const created = await call(`${emu.claimApiHost}/api/v1/database`, "POST", { ref: "browser-test" });
    emu.state.clock.advance(72 * 3_600_000);
    const page = await browser.context.newPage();
    const response = await page.goto(String(created.body["claim_url"]));
    expect(response?.status()).toBe(404);
    expect(await page.getByTestId("claim-not-found").textContent()).toBe("This database does not exist or has expired.");
    await page.close();
  }, 30_000);
});
