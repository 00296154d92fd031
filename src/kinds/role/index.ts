/** The role kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { RoleOperations, RoleLiveFields, RoleResolvedFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { rolePull } from "./pull.js";
import { type RolePolicyKeys, type RolePruneFlag, rolePolicy } from "./policy.js";

/** Postgres roles (`roles`). */
export const roleKind: KindLight<"role"> = {
  name: "role",
  scope: "named",
  prunedByName: true,
  policy: rolePolicy,
  pull: rolePull,
  stages: async () => (await import("./stages.js")).roleStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: PostgreSQL roles. */
    role: { scope: "named"; operations: RoleOperations; liveFields: RoleLiveFields; resolvedFields: RoleResolvedFields; prunedByName: true; policy: { keys: RolePolicyKeys; prune: RolePruneFlag } };
  }
}
