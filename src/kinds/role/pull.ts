/** Roles in a pulled config. Pure. */
import type { ApiRole } from "../../api/wire-types.js";
import type { KindPull } from "../../inspect/kind-pull.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { pulledFields } from "../../inspect/pulled-fields.js";
import { roleNameIssue } from "../../rules/pg-names.js";
import { ROLE_DEFAULTS, ROLE_FIELDS } from "./fields.js";
import type { RoleDef } from "./policy.js";

/**
 * The branch's roles as `roles`, sorted: `login: false` for a `NOLOGIN` role. Protected roles
 * belong to the platform and names a policy could not declare are left out (planning the pull
 * lists them as unmanaged).
 */
export function pulledRoles(roles: readonly ApiRole[]): Record<string, RoleDef> {
  const kept = roles.filter((r) => r.protected !== true && roleNameIssue(r.name) === null).sort((a, b) => compareCodePoints(a.name, b.name));
  return Object.fromEntries(kept.map((r) => [r.name, pulledFields(ROLE_FIELDS, r, ROLE_DEFAULTS)]));
}

/** `roles` when the branch has a role a policy can declare. */
export const rolePull: KindPull = {
  policy: (records) => {
    const roles = pulledRoles(records.roles);
    return Object.keys(roles).length === 0 ? {} : { roles };
  },
};
