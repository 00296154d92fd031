/** Role records → the live state's roles: the role kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiRole } from "../../api/wire-types.js";
import { sortBy, sortedNames } from "../../inspect/normalize.js";
import { fromWire } from "../../model/kinds/field.js";
import { type LiveRole, ROLE_DEFAULTS, ROLE_FIELDS } from "./fields.js";

/** Roles sorted by name, their fields read through the role descriptor (never a password). */
export function normalizeRoles(roles: readonly ApiRole[]): LiveRole[] {
  return sortBy(
    roles.map((r) => ({ name: r.name, ...ROLE_DEFAULTS, ...fromWire(ROLE_FIELDS, r), protected: r.protected === true })),
    (r) => r.name,
  );
}

/**
 * The role kind's read: the roles, with the databases (a role owning one is never deleted), when
 * the policy declares roles or states their prune flag, and the parent's names when it does
 * (inherited detection).
 */
export const roleRead: KindRead<LiveContributionOf<"role">> = {
  pull: { needs: { roles: true } },
  needs: ({ roles, prune, pruneStated }) => {
    const listed = prune.roles || pruneStated.roles;
    return roles.length > 0 || listed ? { roles: true, databases: true, ...(listed ? { parentRolesDatabases: true } : {}) } : {};
  },
  slice: ({ roles, parentRolesDatabases }) => ({
    ...(roles === undefined ? {} : { roles: normalizeRoles(roles) }),
    ...(parentRolesDatabases === undefined ? {} : { parentRoles: sortedNames(parentRolesDatabases.roles) }),
  }),
};
