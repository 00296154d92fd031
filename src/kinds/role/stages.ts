/** The role kind's stages: its diff and prune and its handlers. */
import { REPLICA_OWNER } from "../../api/wire/replica-seed.js";
import type { KindStages } from "../module.js";
import { roleRead } from "./read.js";
import { OPERATION_WAIT_MS } from "../../apply/execution-context.js";
import { applyRoleCreate, applyRoleDelete } from "./apply.js";
import { diffRoles, pruneRoles } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const roleStages: KindStages<"role"> = {
  read: roleRead,
  compared: (live) => ({ roles: live.roles, parentRoles: live.parentRoles }),
  diff: (desired, live, _options, sink) => diffRoles(desired, live, sink),
  prune: (desired, live, _options, sink) => pruneRoles(desired, live, sink),
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
