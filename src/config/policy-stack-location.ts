/**
 * Where in the user's own source a policy threw: the first stack frame in the policy's directory
 * (outside `node_modules`), as `path:line:column` of the file the user wrote. Evaluation already
 * put the stack's frames of transformed modules back into their source's lines and columns
 * (`restorePolicyLines` in `policy-transform.ts`), and CommonJS helpers run untransformed, so the
 * frame is read as it stands.
 */
import { dirname } from "node:path";

/**
 * `path:line:column` of the first frame of `cause`'s stack in the policy's own files, in the
 * source the user wrote; undefined when the stack has no such frame.
 */
export function policyStackLocation(policyFile: string, cause: unknown): string | undefined {
  const stack = typeof cause === "object" && cause !== null ? (cause as { stack?: unknown }).stack : undefined;
  if (typeof stack !== "string") return undefined;
  const dir = dirname(policyFile);
  for (const match of stack.matchAll(/(?:\(|at )((?:file:\/\/)?\/[^()\s]+?):(\d+):(\d+)\)?$/gm)) {
    const path = (match[1] ?? "").replace(/^file:\/\//, "");
    if (path.startsWith(dir) && !path.includes("/node_modules/")) return `${path}:${match[2]}:${match[3]}`;
  }
  return undefined;
}
