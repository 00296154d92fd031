/** Role records → the live state's roles. Pure. */
import type { ApiRole } from "../../api/wire-types.js";
import { sortBy } from "../../inspect/normalize.js";
import { fromWire } from "../../model/kinds/field.js";
import type { LiveRole } from "../../model/live-state.js";
import { ROLE_DEFAULTS, ROLE_FIELDS } from "./fields.js";

/** Roles sorted by name, their fields read through the role descriptor (never a password). */
export function normalizeRoles(roles: readonly ApiRole[]): LiveRole[] {
  return sortBy(
    roles.map((r) => ({ name: r.name, ...ROLE_DEFAULTS, ...fromWire(ROLE_FIELDS, r), protected: r.protected === true })),
    (r) => r.name,
  );
}
