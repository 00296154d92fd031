/** The branch-settings kind's stages: its diff and its handler. */
import type { KindStages } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyBranchUpdate, branchCreate } from "./apply.js";
import { diffBranch } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const branchStages: KindStages<"branch"> = {
  diff: (desired, live, options, sink) => diffBranch(desired, live, options.now, sink),
  create: branchCreate,
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
