/**
 * The branch-settings resource kind (docs/policy.md#the-branch-closure): what the branch
 * closure's tuning sets on the branch itself. The policy schema, the public type's compile-time
 * check, the inspector, the diff, the handler and the pull read this descriptor. `ttl` is the
 * one field the policy states otherwise than the platform holds it: a lifetime counted from the
 * branch's creation, which the diff turns into the expiry instant `expiresAt` (`null`: none).
 */
import type { FieldDescriptor, ModelValues } from "../../model/kinds/field.js";

const HOUR = 3600;
const DAY = 86_400;

/** The branch settings, in the order plans, pulls and requests list them. */
export const BRANCH_SETTINGS = [
  {
    policyKey: "protected",
    modelKey: "protected",
    wireKey: "protected",
    rule: { type: "boolean" },
    compare: "exact",
    changeClass: "override",
    pulled: true,
  },
  {
    policyKey: "ttl",
    planKey: "expiresAt",
    modelKey: "expiresAt",
    wireKey: "expires_at",
    rule: { type: "timestamp", nullable: true },
    policyRule: { type: "duration", min: HOUR, max: 30 * DAY, off: { model: null, means: "for no expiry" } },
    compare: "exact",
    changeClass: "override",
    pulled: true,
  },
] as const satisfies readonly FieldDescriptor[];

/** The branch settings in model vocabulary (`expiresAt`: RFC 3339 or `null`). */
export type BranchValues = ModelValues<typeof BRANCH_SETTINGS>;

/** The branch settings of the resolved policy (`desired.branch`), as the tuning stated them. */
export interface BranchResolvedSettings {
  protected?: boolean;
  /** `null` = `ttl: false` (the branch must have no expiry). */
  ttlSeconds?: number | null;
}

/** The branch's operation: `planned`, the changed settings (an `expiresAt` of `null` removes the expiry). */
export interface BranchOperations {
  "branch-update": { op: Record<never, never>; planned: Partial<BranchValues> };
}

/** RFC 3339 in whole seconds, as the API wants `expires_at`. */
export function toWholeSecondIso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
