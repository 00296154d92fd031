/** The branch-settings kind as the registry holds it: its diff and its handler. */
import { applyBranchUpdate } from "../../apply/handlers/control-plane.js";
import { diffBranch } from "../../diff/branch.js";
import type { KindModule } from "../module.js";

/** The branch's own settings (protection, expiry, name). */
export const branchKind: KindModule<"branch"> = {
  name: "branch",
  diff: (desired, live, options, sink) => diffBranch(desired, live, options.now, sink),
  handlers: { "branch-update": (ctx, change) => applyBranchUpdate(ctx, change) },
};
