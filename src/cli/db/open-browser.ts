/** Opening a URL in the default browser for `svc db claim`. */
import { spawn } from "node:child_process";

/** The opener command of a platform: `open`, `start` (through cmd) or `xdg-open`. */
export function openerFor(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""', url] };
  return { command: "xdg-open", args: [url] };
}

/**
 * Whether `svc db claim` may open a browser: an interactive run, `SVC_NO_BROWSER` unset, and on
 * Linux a display (`DISPLAY` or `WAYLAND_DISPLAY`).
 */
export function mayOpenBrowser(interactive: boolean, env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): boolean {
  if (!interactive || (env["SVC_NO_BROWSER"] ?? "") !== "") return false;
  if (platform === "linux") return (env["DISPLAY"] ?? "") !== "" || (env["WAYLAND_DISPLAY"] ?? "") !== "";
  return true;
}

/** Spawns the opener detached; resolves false (never throws) when it cannot start. */
export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const { command, args } = openerFor(platform, url);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { detached: true, stdio: "ignore" });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
