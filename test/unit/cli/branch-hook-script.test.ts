import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HOOK_MARKER, renderHookScript, shellQuote } from "../../../src/cli/commands/branch-hook-script.js";

describe("the post-checkout hook script", () => {
  it.each(["plain", "with space", "it's", `"double" and 'single'`, "$(id) `id` $HOME", "new\nline", "back\\slash", ""])("quotes %j as one shell word that comes back unchanged", (value) => {
    expect(execFileSync("/bin/sh", ["-c", `printf '%s' ${shellQuote(value)}`], { encoding: "utf8" })).toBe(value);
  });

  it("runs the kept hook first, syncs only branch checkouts outside CI with a key, and never fails the checkout", () => {
    const script = renderHookScript({ node: "/usr/bin/node", bin: "/repo's/bin/svc.js", syncArgs: ["--write-env", "/repo/.env"], envFiles: false });
    expect(script.split("\n")).toEqual([
      "#!/bin/sh",
      HOOK_MARKER,
      "# Installed by `svc branch hook install`; `svc branch hook uninstall` removes it and restores",
      "# the hook it replaced (kept as post-checkout.svc-chained).",
      'hook_dir=$(dirname -- "$0")',
      "status=0",
      'if [ -x "$hook_dir/post-checkout.svc-chained" ]; then',
      '  "$hook_dir/post-checkout.svc-chained" "$@" || status=$?',
      "fi",
      "# $3 is 1 for a branch checkout, 0 for a file checkout; CI jobs sync explicitly.",
      'if [ "$3" = "1" ] && [ -z "${CI:-}" ] && [ -n "${SVC_API_KEY:-}" ]; then',
      `  '/usr/bin/node' '/repo'\\''s/bin/svc.js' 'branch' 'sync' '--write-env' '/repo/.env' </dev/null || echo "svc: branch sync failed; the checkout itself succeeded" >&2`,
      "fi",
      'exit "$status"',
      "",
    ]);
  });

  it("does not require SVC_API_KEY when --env files may hold the key", () => {
    expect(renderHookScript({ node: "n", bin: "b", syncArgs: ["--env", "/r/.env.svc"], envFiles: true })).toContain('if [ "$3" = "1" ] && [ -z "${CI:-}" ]; then');
  });
});
