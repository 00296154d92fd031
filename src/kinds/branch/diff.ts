/** The branch kind's pure diff: protection and the expiry a ttl gives, against the live branch. */
import { type FieldDescriptor, planKeyOf, sameFieldValue, strongestClass } from "../../model/kinds/field.js";
import type { LiveState } from "../../model/live-state.js";
import type { ConflictReport } from "../../model/plan.js";
import type { ResolvedPolicy } from "../../model/desired-state.js";
import { makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import { BRANCH_SETTINGS, type BranchValues, toWholeSecondIso } from "./fields.js";

/** Expiries within this many seconds of each other are equal. */
export const TTL_TOLERANCE_SECONDS = 60;
/** A new expiry must lie at least this far in the future. */
export const TTL_MIN_LEAD_SECONDS = 3600;

/**
 * Diffs the branch-level settings: `protected` and the TTL (anchored at `createdAt`).
 * Emits `update:branch` (override) and the blocking TTL conflicts
 * (`TTL_DEFAULT_BRANCH`; `TTL_EXPIRES_NOW` for an expiry in the past or under an hour away).
 */
export function diffBranch(desired: ResolvedPolicy, live: LiveState, now: Date, sink: DiffSink): void {
  const want = desired.branch;
  const [protection, expiry] = BRANCH_SETTINGS;
  const before: BranchValues = { protected: live.branch.protected, expiresAt: live.branch.expiresAt ?? null };
  const after = { ...before };
  const changed: FieldDescriptor[] = [];
  const reasons: string[] = [];
  const planned: Partial<BranchValues> = {};

  if (want.protected !== undefined && !sameFieldValue(protection, want.protected, before.protected)) {
    changed.push(protection);
    after.protected = want.protected;
    planned.protected = want.protected;
    reasons.push(want.protected ? "the policy protects the branch" : "the policy unprotects the branch");
  }

  const ttl = want.ttlSeconds;
  if (typeof ttl === "number") {
    if (live.branch.isDefault) {
      sink.conflicts.push(ttlConflict("TTL_DEFAULT_BRANCH", live, ttl,
        `ttl is declared for the default branch "${live.branch.name}", which must not expire; return no ttl for the default branch (t.isDefault)`));
    } else {
      const desiredMs = Date.parse(live.branch.createdAt) + ttl * 1000;
      const liveMs = live.branch.expiresAt === undefined ? undefined : Date.parse(live.branch.expiresAt);
      if (liveMs === undefined || Math.abs(liveMs - desiredMs) > TTL_TOLERANCE_SECONDS * 1000) {
        const expiresAt = toWholeSecondIso(desiredMs);
        if (desiredMs < now.getTime() + TTL_MIN_LEAD_SECONDS * 1000) {
          sink.conflicts.push(ttlConflict("TTL_EXPIRES_NOW", live, ttl,
            `ttl ${ttl}s counted from the branch's creation (${live.branch.createdAt}) gives ${expiresAt}, which would expire the branch now; ` +
              "raise the ttl, or use ttl: false to remove the expiry"));
        } else {
          changed.push(expiry);
          after.expiresAt = expiresAt;
          planned.expiresAt = expiresAt;
          reasons.push(liveMs === undefined ? `ttl sets an expiry of ${expiresAt}` : `ttl moves the expiry to ${expiresAt}`);
        }
      }
    }
  } else if (ttl === null && !sameFieldValue(expiry, null, before.expiresAt)) {
    changed.push(expiry);
    after.expiresAt = null;
    planned.expiresAt = null;
    reasons.push("ttl: false removes the expiry");
  }

  if (changed.length === 0) return;
  sink.changes.push(
    makeChange({
      address: "branch",
      kind: "branch",
      action: "update",
      class: strongestClass(changed),
      fields: changed.map(planKeyOf),
      before,
      after,
      reason: reasons.join("; "),
      op: { type: "branch-update" },
      planned,
    }),
  );
}

function ttlConflict(code: string, live: LiveState, ttl: number, reason: string): ConflictReport {
  return {
    kind: "branch",
    identifier: live.branch.name,
    field: "ttl",
    current: live.branch.expiresAt ?? null,
    desired: ttl,
    reason,
    blocking: true,
    code,
  };
}
