/** Bucket records → the live state's buckets. Pure. */
import type { ApiBucket } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { fromWire } from "../../model/kinds/field.js";
import type { LiveState } from "../../model/live-state.js";
import { BUCKET_FIELDS } from "./fields.js";

/** Buckets sorted by name (code points), their fields read through the descriptor. */
export function normalizeBuckets(buckets: readonly ApiBucket[]): NonNullable<LiveState["buckets"]> {
  return buckets.map((b) => ({ name: b.name, ...fromWire(BUCKET_FIELDS, b) })).sort((a, b) => compareCodePoints(a.name, b.name));
}
