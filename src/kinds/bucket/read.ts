/** Bucket records → the live state's buckets: the bucket kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiBucket } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { fromWire } from "../../model/kinds/field.js";
import { BUCKET_FIELDS, type LiveBucket } from "./fields.js";

/** Buckets sorted by name (code points), their fields read through the descriptor. */
export function normalizeBuckets(buckets: readonly ApiBucket[]): LiveBucket[] {
  return buckets.map((b) => ({ name: b.name, ...fromWire(BUCKET_FIELDS, b) })).sort((a, b) => compareCodePoints(a.name, b.name));
}

/** The bucket kind's read: the buckets when the policy declares some or states their prune flag; the triggers too when pruning (a bucket a trigger uses is never deleted). */
export const bucketRead: KindRead<LiveContributionOf<"bucket">> = {
  pull: { needs: { buckets: true } },
  needs: ({ buckets, prune, pruneStated }) => ({
    ...(buckets.length > 0 || prune.buckets || pruneStated.buckets ? { buckets: true } : {}),
    ...(prune.buckets ? { triggers: true } : {}),
  }),
  slice: ({ buckets }) => (buckets === undefined ? {} : { buckets: normalizeBuckets(buckets) }),
  // A bucket that holds objects is deleted only with data loss allowed: the first diff's deletes say which to list.
  guards: {
    needs: (changes) => {
      const deleted = changes.flatMap(({ op }) => (op.type === "bucket-delete" ? [op.name] : []));
      return deleted.length === 0 ? {} : { bucketObjects: deleted };
    },
    slice: ({ bucketObjects }) => (bucketObjects === undefined ? {} : { bucketHasObjects: bucketObjects }),
  },
};
