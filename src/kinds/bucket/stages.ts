/** The bucket kind's stages: its diff and prune, its handlers, and when a policy needs the buckets feature. */
import { bucketRecordOf } from "./wire.js";
import type { KindStages } from "../module.js";
import { nameRecord } from "../../model/own-record.js";
import { bucketRead } from "./read.js";
import { applyBucketCreate, applyBucketDelete } from "./apply.js";
import { diffBuckets, pruneBuckets } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const bucketStages: KindStages<"bucket"> = {
  read: bucketRead,
  compared: (live) => ({ buckets: live.buckets, bucketHasObjects: live.bucketHasObjects === undefined ? undefined : nameRecord(live.bucketHasObjects) }),
  diff: (desired, live, _options, sink) => diffBuckets(desired, live, sink),
  prune: (desired, live, options, sink) => pruneBuckets(desired, live, options.allowDataLoss, sink),
  declares: (desired) => desired.buckets.length > 0,
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
