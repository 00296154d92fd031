/** The branch's own settings in the branch closure's tuning: the public type and the schema's shape. */
import type { Duration } from "../../config/durations.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { BRANCH_SETTINGS } from "./fields.js";

/** What the branch closure's tuning sets on the branch itself (docs/policy.md#the-branch-closure). */
export interface BranchSettingsDef {
  protected?: boolean;
  /** 1 hour to 30 days from creation; `false` = no expiry. */
  ttl?: Duration | false;
}

/** The tuning's `protected` and `ttl` entries (ttl out in seconds, or `null` for `false`), from the descriptor. */
export const branchSettingsShape = fieldsShape(BRANCH_SETTINGS);
