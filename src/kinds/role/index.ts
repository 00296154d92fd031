/** The role kind as the registry holds it: its diff and prune and its handlers. */
import { applyRoleCreate, applyRoleDelete } from "../../apply/handlers/roles.js";
import { diffRoles, pruneRoles } from "../../diff/roles.js";
import type { KindModule } from "../module.js";

/** Postgres roles (`roles`). */
export const roleKind: KindModule<"role"> = {
  name: "role",
  diff: (desired, live, _options, sink) => diffRoles(desired, live, sink),
  prune: (desired, live, _options, sink) => pruneRoles(desired, live, sink),
  handlers: {
    "role-create": applyRoleCreate,
    "role-delete": (ctx, change, op) => applyRoleDelete(ctx, change.id, op),
  },
};
