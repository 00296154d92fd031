import { changeId, existingIds, fieldsView, makeChange, movesAway } from "../../diff/change-builder.js";
import { lookalikeConflict } from "../../diff/lookalike-names.js";
import type { DiffSink } from "../../diff/plan-types.js";
import type { ResolvedPolicy } from "../../model/desired-state.js";
import { sameFieldValue } from "../../model/kinds/field.js";
import type { LiveState } from "../../model/live-state.js";
import { BUCKET_FIELDS } from "./fields.js";

const [ACCESS] = BUCKET_FIELDS;

/** Diffs declared buckets (fields of `fields.ts`): create when absent, `BUCKET_ACCESS_IMMUTABLE` on access drift. */
export function diffBuckets(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  const byName = new Map((live.buckets ?? []).map((b) => [b.name, b]));
  for (const bucket of desired.buckets) {
    const current = byName.get(bucket.name);
    if (current === undefined) {
      sink.changes.push(
        makeChange({
          address: `bucket.${bucket.name}`, kind: "bucket", action: "create", class: "additive", fields: ["*"],
          before: null, after: fieldsView(BUCKET_FIELDS, bucket),
          reason: `bucket ${bucket.name} is declared and absent on the branch`,
          op: { type: "bucket-create", name: bucket.name },
          planned: { access: bucket.access },
        }),
      );
    } else if (!sameFieldValue(ACCESS, current.access, bucket.access)) {
      sink.conflicts.push({
        kind: "bucket", identifier: bucket.name, field: ACCESS.policyKey, current: current.access ?? null, desired: bucket.access, blocking: true,
        code: "BUCKET_ACCESS_IMMUTABLE",
        reason:
          `bucket ${bucket.name} has access ${current.access}; the platform cannot change a bucket's access in place. ` +
          "Use a new bucket name, or delete and recreate the bucket (its objects are lost)",
      });
    }
  }
}

/**
 * Undeclared buckets: deleted under `prune.buckets` (destructive when they hold objects and
 * `allowDataLoss` is set, else `BUCKET_NOT_EMPTY`), else unmanaged. Runs after the trigger diff.
 */
export function pruneBuckets(desired: ResolvedPolicy, live: LiveState, allowDataLoss: boolean, sink: DiffSink): void {
  const declared = new Set(desired.buckets.map((b) => b.name));
  const planned = new Set(sink.changes.map((c) => c.change.id));
  for (const bucket of live.buckets ?? []) {
    if (declared.has(bucket.name)) continue;
    const address = `bucket.${bucket.name}`;
    const lookalike = desired.prune.buckets ? lookalikeConflict("bucket", bucket.name, declared) : undefined;
    if (lookalike !== undefined) {
      sink.conflicts.push(lookalike);
      continue;
    }
    if (!desired.prune.buckets) {
      sink.unmanaged.push({ address, kind: "bucket", identifier: bucket.name, reason: `bucket ${bucket.name} is not declared (set prune.buckets to delete it)` });
      continue;
    }
    const triggers = (live.triggers ?? []).filter((t) => t.bucket === bucket.name);
    const kept = triggers.filter((t) => !planned.has(changeId("delete", `trigger.${t.name}`)) && !movesAway(sink, `trigger.${t.name}`, "bucket"));
    if (kept.length > 0) {
      const users = kept.map((t) => `trigger ${t.name}`);
      sink.conflicts.push({
        kind: "bucket", identifier: bucket.name, field: "*", current: users, desired: null, blocking: true, code: "STILL_REFERENCED",
        reason: `bucket ${bucket.name} would be pruned but is still used by ${users.join(", ")}; declare the bucket or prune those too`,
      });
      continue;
    }
    const hasObjects = live.bucketHasObjects?.get(bucket.name) === true;
    if (hasObjects && !allowDataLoss) {
      sink.conflicts.push({
        kind: "bucket", identifier: bucket.name, field: "*", current: fieldsView(BUCKET_FIELDS, bucket), desired: null, blocking: true, code: "BUCKET_NOT_EMPTY",
        reason: `bucket ${bucket.name} would be pruned but holds objects; declare it, empty it, or pass allowDataLoss to delete it with its objects`,
      });
      continue;
    }
    sink.changes.push(
      makeChange({
        address, kind: "bucket", action: "delete", class: hasObjects ? "destructive" : "override", fields: ["*"],
        before: fieldsView(BUCKET_FIELDS, bucket), after: null,
        reason: `bucket ${bucket.name} is not declared and prune.buckets is set${hasObjects ? "; its objects are deleted too" : ""}`,
        dependsOn: existingIds(sink.changes, triggers.flatMap((t) => [changeId("delete", `trigger.${t.name}`), changeId("update", `trigger.${t.name}`)])),
        op: { type: "bucket-delete", name: bucket.name },
        planned: {},
      }),
    );
  }
}
