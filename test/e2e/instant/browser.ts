/**
 * Chromium for the claim-page browser tests: Debian's binary from
 * `SVC_CHROMIUM_PATH`, else `/usr/bin/chromium`; never downloaded. A missing browser fails with
 * install instructions, unless `SVC_SKIP_BROWSER_TESTS=1` on a machine without `CI`.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** The Chromium executable the tests use. */
export const CHROMIUM_PATH = process.env.SVC_CHROMIUM_PATH || "/usr/bin/chromium";

/** True when the browser is missing and the developer asked to skip (never under CI). */
export const SKIP_BROWSER = !existsSync(CHROMIUM_PATH) && process.env.SVC_SKIP_BROWSER_TESTS === "1" && (process.env.CI ?? "") === "";

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A headless Chromium with a fresh user-data directory; `close` removes it. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it (as root: DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium, or run bash .ci/run), ` +
        "or set SVC_CHROMIUM_PATH; on a developer machine SVC_SKIP_BROWSER_TESTS=1 skips these tests.",
    );
  }
  const userDataDir = mkdtempSync(join(tmpdir(), "svc-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM_PATH, headless: true, chromiumSandbox: false, args: FLAGS });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
