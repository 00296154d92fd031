import type { BranchSeed, ReplicaSeed } from "../api/wire/replica-seed.js";
import { KIND_MODULES } from "../kinds/modules.js";
import type { LiveState } from "../model/live-state.js";

export type { ReplicaSeed } from "../api/wire/replica-seed.js";

/**
 * The branch a plan read, as an emulator seed: the same project, branch, endpoint and trigger
 * ids, settings, env names and fingerprint markers (each kind's module seeds its records), so
 * the replica answers the plan's reads as the platform did. What the plan did not read is
 * absent. What a non-default branch inherits sits on a stand-in parent branch.
 */
export function replicaSeed(live: LiveState, apiKey: string): ReplicaSeed {
  const owner = "replica@svc-config.invalid";
  const branch: BranchSeed = { name: live.branch.name };
  const parent: BranchSeed = {
    ...(live.branch.parentId === undefined ? {} : { id: live.branch.parentId }),
    name: live.branch.name === "replica-parent" ? "replica-parent-2" : "replica-parent",
    default: true,
  };
  for (const kind of KIND_MODULES) {
    const seed = kind.seed(live);
    mergeSeed(branch, seed.branch);
    mergeSeed(parent, seed.parent);
  }
  const branches = live.branch.isDefault ? [branch] : [parent, { ...branch, parent: parent.name }];
  return {
    version: 1,
    users: [{ email: owner, plan: "scale", api_keys: [{ name: "replica", key: apiKey, admin: true }] }],
    regions: [{ region_id: live.project.regionId, platform_features: true }],
    projects: [{ owner, id: live.project.id, name: live.project.name, region_id: live.project.regionId, pg_version: live.project.pgVersion, branches }],
  };
}

/** Adds one kind's records to a branch of the seed: a list another kind started is joined, not replaced. */
function mergeSeed(target: BranchSeed, part: Partial<BranchSeed> | undefined): void {
  const into: Partial<Record<keyof BranchSeed, unknown>> = target;
  for (const [key, value] of Object.entries(part ?? {}) as [keyof BranchSeed, unknown][]) {
    const had = into[key];
    into[key] = Array.isArray(had) && Array.isArray(value) ? [...had, ...value] : value;
  }
}
