/** The branch-settings kind as the registry holds it: its diff and its handler. */
import type { BranchOperations } from "./fields.js";
import { branchPull } from "./pull.js";
import type { KindModule } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyBranchUpdate } from "./apply.js";
import { diffBranch } from "./diff.js";

/** The branch's own settings (protection, expiry, name). */
export const branchKind: KindModule<"branch"> = {
  name: "branch",
  scope: "branch",
  diff: (desired, live, options, sink) => diffBranch(desired, live, options.now, sink),
  pull: branchPull,
  handlers: { "branch-update": (ctx, change, _op, planned) => applyBranchUpdate(ctx, change.id, planned) },
  expectedWaits: { "branch-update": () => OPERATION_WAIT_MS },
  digests: { "branch-update": (planned) => planned },
  seed: (live) => ({
    branch: {
      id: live.branch.id, default: live.branch.isDefault, protected: live.branch.protected, created_at: live.branch.createdAt,
      ...(live.branch.expiresAt === undefined ? {} : { expires_at: live.branch.expiresAt }),
    },
  }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the branch's own settings. */
    branch: { scope: "branch"; operations: BranchOperations };
  }
}
