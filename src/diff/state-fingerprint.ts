import type { LiveState } from "../model/live-state.js";
import { sha256Of } from "./canonical-json.js";
import type { KindDiff } from "./plan-types.js";

/**
 * The part of the live state the diff compares: the project's id, the branch, each
 * kind's fields as it compares them (`compared`) and the kinds' own slices (`kinds`) whole.
 * Timestamps other than the branch's, deployment ids, DNS status and the like are left out.
 */
export function comparedProjection(live: LiveState, kinds: readonly Pick<KindDiff, "compared">[]): unknown {
  return Object.assign(
    {
      project: { id: live.project.id },
      branch: {
        id: live.branch.id,
        name: live.branch.name,
        createdAt: live.branch.createdAt,
        expiresAt: live.branch.expiresAt ?? null,
        protected: live.branch.protected,
        isDefault: live.branch.isDefault,
      },
      kinds: live.kinds,
    },
    ...kinds.map((kind) => kind.compared?.(live)),
  );
}

/** `sha256:<hex>` of the canonical JSON of {@link comparedProjection}. */
export function stateFingerprint(live: LiveState, kinds: readonly Pick<KindDiff, "compared">[]): string {
  return sha256Of(comparedProjection(live, kinds));
}
