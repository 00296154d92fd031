/** The branch's own settings in a pulled config. Pure. */
import type { ApiBranch } from "../../api/wire-types.js";
import type { BranchTuning } from "../../config/policy-types.js";
import { policyValueOf } from "../../config/schemas/fields.js";
import type { KindPull } from "../../inspect/kind-pull.js";
import { BRANCH_SETTINGS } from "./fields.js";

/**
 * The pulled settings of `branch` as its tuning states them: `protected`, and the expiry as a
 * `ttl` counted from the branch's creation (none for the default branch, which must not expire,
 * nor for an expiry a policy cannot state).
 */
export function pulledBranchSettings(branch: ApiBranch): Pick<BranchTuning, "protected" | "ttl"> {
  const settings: Pick<BranchTuning, "protected" | "ttl"> = {};
  const [protection, expiry] = BRANCH_SETTINGS;
  if (protection.pulled) settings.protected = branch.protected;
  if (expiry.pulled && branch.expires_at !== undefined && !branch.default) {
    const ttl = policyValueOf(expiry, Math.round((Date.parse(branch.expires_at) - Date.parse(branch.created_at)) / 1000));
    if (typeof ttl === "string") settings.ttl = ttl;
  }
  return settings;
}

/** The branch's own settings in the pulled tuning, which renders through their descriptor. */
export const branchPull = {
  tuning: (records) => pulledBranchSettings(records.branch),
  described: { branch: BRANCH_SETTINGS },
} satisfies KindPull;
