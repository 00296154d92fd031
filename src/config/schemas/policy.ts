/** Schema of the static part of a policy: every top-level key but the closure's result. */
import * as z from "zod";
import { describeType } from "../issues.js";
import type { BranchClosure } from "../policy-types.js";
import { bucketsSchema } from "../../kinds/bucket/policy.js";
import { strictObject, toggleSchema } from "./common.js";
import { dataApiSchema } from "../../kinds/dataApi/policy.js";
import { databasesSchema } from "../../kinds/database/policy.js";
import { functionsSchema } from "../../kinds/function/policy.js";
import { hooksSchema } from "./hooks.js";
import { pruneSchema } from "./prune.js";
import { rolesSchema } from "../../kinds/role/policy.js";
import { triggersSchema } from "../../kinds/trigger/policy.js";

/** `branch`: a function `(target) => tuning`. */
const branchClosureSchema = z.custom<BranchClosure>((value) => typeof value === "function", {
  error: (issue) => `must be a function (target) => tuning (got ${describeType(issue.input)})`,
});

/** The deprecated `preview` homes of `functions`, `buckets` and `aiGateway`. */
const previewSchema = strictObject(
  {
    functions: functionsSchema.optional(),
    buckets: bucketsSchema.optional(),
    aiGateway: toggleSchema.optional(),
  },
  "{ functions?, buckets?, aiGateway? }",
);

/** The static part of a policy (strict). */
export const policySchema = strictObject(
  {
    auth: toggleSchema.optional(),
    dataApi: dataApiSchema.optional(),
    aiGateway: toggleSchema.optional(),
    functions: functionsSchema.optional(),
    buckets: bucketsSchema.optional(),
    triggers: triggersSchema.optional(),
    roles: rolesSchema.optional(),
    databases: databasesSchema.optional(),
    prune: pruneSchema.optional(),
    hooks: hooksSchema.optional(),
    branch: branchClosureSchema.optional(),
    preview: previewSchema.optional(),
  },
  "an object",
);

/** The validated, normalised static part (booleans expanded, hostnames normalised, cron collapsed). */
export type ParsedPolicy = z.output<typeof policySchema>;
