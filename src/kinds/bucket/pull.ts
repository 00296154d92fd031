/** Buckets in a pulled config: listed for the reader, never declared (a pull cannot know which to manage). */
import type { ApiBucket } from "../../api/wire-types.js";
import { type KindPull, commentSection } from "../../inspect/kind-pull.js";
import { compareCodePoints } from "../../inspect/normalize.js";

/** A bucket as a pull lists it. */
export interface PulledBucket {
  name: string;
  access: string;
}

/** The branch's buckets by name (code points). */
export function pulledBuckets(records: readonly ApiBucket[]): PulledBucket[] {
  return records.map((b) => ({ name: b.name, access: b.access_level })).sort((a, b) => compareCodePoints(a.name, b.name));
}

/**
 * What the rendered policy source says about the pulled buckets, as lines it comments out (none
 * without buckets), each live value written by `literal` (the renderer's escaping).
 */
function pulledBucketLines(buckets: readonly PulledBucket[], literal: (value: unknown) => string): string[] {
  return commentSection(
    "Buckets on this branch (declare them under `buckets` to manage them):",
    buckets.map((b) => `  ${literal(b.name)}: { access: ${literal(b.access)} }`),
  );
}

/** Buckets are listed in `preview.buckets` and commented on, never declared; `prune.buckets` is stated when the branch has any. */
export const bucketPull = {
  preview: (records) => ({ buckets: pulledBuckets(records.buckets) }),
  prune: { key: "buckets", live: (records) => records.buckets.length },
  comments: (preview, text) => pulledBucketLines(preview.buckets ?? [], text.literal),
} satisfies KindPull;
