/**
 * The `post-checkout` hook `svc branch hook install` writes: a POSIX shell script that first runs
 * the hook it replaced (kept beside it, run only if executable, as git would), then, for branch
 * checkouts only (git's third argument is 1), outside CI and with an API key, `svc branch sync`
 * with no stdin. A failed sync never fails the checkout. Pure: renders text.
 */

/** The line that marks a hook as svc's own. */
export const HOOK_MARKER = "# svc-config post-checkout hook";

/** Where an existing hook is kept while svc's hook is installed (beside it). */
export const CHAINED_SUFFIX = ".svc-chained";

/** `value` as one single-quoted shell word (a `'` inside becomes `'\''`). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** What the hook runs and with which `svc branch sync` arguments. */
export interface HookScriptOptions {
  /** The Node.js binary and svc's bin script, absolute. */
  node: string;
  bin: string;
  /** Arguments after `branch sync`. */
  syncArgs: readonly string[];
  /** Whether `--env` files were given: then a key may come from them, and the hook does not require `SVC_API_KEY`. */
  envFiles: boolean;
}

/** The hook script. */
export function renderHookScript(options: HookScriptOptions): string {
  const command = [options.node, options.bin, "branch", "sync", ...options.syncArgs].map(shellQuote).join(" ");
  const keyCheck = options.envFiles ? "" : ' && [ -n "${SVC_API_KEY:-}" ]';
  return [
    "#!/bin/sh",
    HOOK_MARKER,
    "# Installed by `svc branch hook install`; `svc branch hook uninstall` removes it and restores",
    `# the hook it replaced (kept as post-checkout${CHAINED_SUFFIX}).`,
    'hook_dir=$(dirname -- "$0")',
    "status=0",
    `if [ -x "$hook_dir/post-checkout${CHAINED_SUFFIX}" ]; then`,
    `  "$hook_dir/post-checkout${CHAINED_SUFFIX}" "$@" || status=$?`,
    "fi",
    "# $3 is 1 for a branch checkout, 0 for a file checkout; CI jobs sync explicitly.",
    `if [ "$3" = "1" ] && [ -z "\${CI:-}" ]${keyCheck}; then`,
    `  ${command} </dev/null || echo "svc: branch sync failed; the checkout itself succeeded" >&2`,
    "fi",
    'exit "$status"',
    "",
  ].join("\n");
}
