/** The role kind as the registry holds it: its diff and prune and its handlers. */
import type { RoleOperations } from "./fields.js";
import { REPLICA_OWNER } from "../../api/wire/replica-seed.js";
import { rolePull } from "./pull.js";
import type { KindModule } from "../module.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyRoleCreate, applyRoleDelete } from "./apply.js";
import { diffRoles, pruneRoles } from "./diff.js";

/** Postgres roles (`roles`). */
export const roleKind: KindModule<"role"> = {
  name: "role",
  scope: "named",
  prunedByName: true,
  diff: (desired, live, _options, sink) => diffRoles(desired, live, sink),
  prune: (desired, live, _options, sink) => pruneRoles(desired, live, sink),
  pull: rolePull,
  handlers: {
    "role-create": applyRoleCreate,
    "role-delete": (ctx, change, op) => applyRoleDelete(ctx, change.id, op),
  },
  expectedWaits: { "role-create": () => OPERATION_WAIT_MS, "role-delete": () => OPERATION_WAIT_MS },
  digests: { "role-create": (planned) => planned },
  // Roles as read when the plan manages them, else one stand-in owner; the parent's by name beside the stand-in.
  seed: (live) => ({
    branch: { roles: live.roles === undefined ? [{ name: REPLICA_OWNER }] : live.roles.map((r) => ({ name: r.name, ...(r.login ? {} : { no_login: true }) })) },
    parent: { roles: [{ name: REPLICA_OWNER }, ...(live.parentRoles ?? []).filter((name) => name !== REPLICA_OWNER).map((name) => ({ name }))] },
  }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: PostgreSQL roles. */
    role: { scope: "named"; operations: RoleOperations; prunedByName: true };
  }
}
