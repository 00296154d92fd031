/**
 * `npx svc emulator` (or `npx svc dev`) runs as `npm exec` → `sh -c svc …` → node. A SIGTERM to npm
 * (what `kill %1` sends to a background `npx svc emulator &` in a script or CI) ends npm and the
 * shell, but the signal never reaches node: svc would run on, with the PostgreSQL or the function
 * processes it started, reparented to init. When npm launched it (`npm_command=exec` in its
 * environment), a long-running command therefore watches its parent process and stops, as on
 * SIGTERM, once the parent is gone. Started any other way (`svc emulator &` from a shell that then
 * exits, as a CI step does), it keeps running.
 */

/** How often the parent is checked, ms: a stop follows npm's within about this long. */
const WATCH_INTERVAL_MS = 250;

/**
 * Calls `onGone` once, when the process was started by `npm exec`/`npx` and its parent exits.
 * Returns a function that stops watching. `ppid` reads the current parent process id.
 */
export function watchNpmLauncher(env: Readonly<Record<string, string | undefined>>, onGone: () => void, ppid: () => number = () => process.ppid): () => void {
  if (env["npm_command"] !== "exec") return () => undefined;
  const parent = ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
