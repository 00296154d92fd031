/** The bucket kind as the registry holds it: its diff and prune, its handlers, and when a policy needs the buckets feature. */
import type { BucketOperations } from "./fields.js";
import { bucketRecordOf } from "./wire.js";
import { type PulledBucket, bucketPull } from "./pull.js";
import type { KindModule } from "../module.js";
import { applyBucketCreate, applyBucketDelete } from "./apply.js";
import { diffBuckets, pruneBuckets } from "./diff.js";

/** Buckets (`buckets` of the branch closure). */
export const bucketKind: KindModule<"bucket"> = {
  name: "bucket",
  scope: "named",
  feature: "buckets",
  prunedByName: true,
  diff: (desired, live, _options, sink) => diffBuckets(desired, live, sink),
  prune: (desired, live, options, sink) => pruneBuckets(desired, live, options.allowDataLoss, sink),
  declares: (desired) => desired.buckets.length > 0,
  pull: bucketPull,
  handlers: {
    "bucket-create": (ctx, _change, op, planned) => applyBucketCreate(ctx, op, planned),
    "bucket-delete": (ctx, _change, op) => applyBucketDelete(ctx, op),
  },
  digests: { "bucket-create": (planned) => planned },
  // A bucket the plan found holding objects holds one on the replica too (the delete guard reads it).
  seed: (live) => ({
    branch: {
      buckets: (live.buckets ?? []).map(bucketRecordOf),
      objects: [...(live.bucketHasObjects ?? new Map<string, boolean>())].filter(([, has]) => has).map(([bucket]) => ({ bucket, key: "replica-object" })),
    },
  }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: buckets. */
    bucket: { scope: "named"; operations: BucketOperations; feature: "buckets"; prunedByName: true;
      preview: { buckets: PulledBucket[] };
    };
  }
}
