/** The branch's own settings in the branch closure's tuning: the public type and the schema's shape. */
import type { Duration } from "../../config/durations.js";
import { fieldsShape } from "../../config/schemas/fields.js";
import { BRANCH_SETTINGS } from "./fields.js";
import type { Assert, PolicyKeys, Same } from "../../config/schemas/type-match.js";

/** What the branch closure's tuning sets on the branch itself (docs/policy.md#the-branch-closure). */
export interface BranchSettingsDef {
  protected?: boolean;
  /** 1 hour to 30 days from creation; `false` = no expiry. */
  ttl?: Duration | false;
}

/** The tuning's `protected` and `ttl` entries (ttl out in seconds, or `null` for `false`), from the descriptor. */
export const branchSettingsShape = fieldsShape(BRANCH_SETTINGS);

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  Assert<Same<keyof BranchSettingsDef, PolicyKeys<typeof BRANCH_SETTINGS>>>,
];
