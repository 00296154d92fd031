/** The branch record → the live state's branch. Pure. */
import type { ApiBranch } from "../../api/wire-types.js";
import { normalizeTimestamp } from "../../inspect/normalize.js";
import type { LiveState } from "../../model/live-state.js";

/** The branch part of the live state. */
export function normalizeBranch(branch: ApiBranch): LiveState["branch"] {
  return {
    id: branch.id,
    name: branch.name,
    ...(branch.parent_id === undefined ? {} : { parentId: branch.parent_id }),
    createdAt: normalizeTimestamp(branch.created_at),
    ...(branch.expires_at === undefined ? {} : { expiresAt: normalizeTimestamp(branch.expires_at) }),
    protected: branch.protected,
    isDefault: branch.default,
  };
}
