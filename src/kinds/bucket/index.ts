/** The bucket kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { BucketOperations, BucketLiveFields, BucketResolvedFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { type PulledBucket, bucketPull } from "./pull.js";
import { type BucketPolicyKeys, type BucketPreviewKeys, bucketPolicy } from "./policy.js";

/** Buckets (`buckets` of the branch closure). */
export const bucketKind: KindLight<"bucket"> = {
  name: "bucket",
  scope: "named",
  feature: "buckets",
  prunedByName: true,
  policy: bucketPolicy,
  pull: bucketPull,
  stages: async () => (await import("./stages.js")).bucketStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: buckets. */
    bucket: { scope: "named"; operations: BucketOperations; liveFields: BucketLiveFields; resolvedFields: BucketResolvedFields; feature: "buckets"; prunedByName: true;
      preview: { buckets: PulledBucket[] };
      policy: { keys: BucketPolicyKeys; preview: BucketPreviewKeys; prune: { buckets?: boolean } };
    };
  }
}
