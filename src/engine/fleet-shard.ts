/**
 * Sharding a fleet run across machines (`--shard i/n`): each branch belongs to exactly one of
 * `n` shards, decided by rendezvous hashing of its id alone. The split needs no coordination
 * between shards, does not depend on which other branches exist (a branch added later never
 * moves an existing one), and when `n` changes only the branches the new shard wins move.
 */
import { createHash } from "node:crypto";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";

/** One shard of a fleet run: `index` from 1 to `count`. */
export interface FleetShard {
  index: number;
  count: number;
}

/** The most shards a run may be split into. */
export const MAX_SHARDS = 256;

/**
 * Checks a `shard` option: whole numbers, 1 ≤ index ≤ count ≤ {@link MAX_SHARDS}.
 * @throws PlatformError `PLATFORM_INVALID_OPTIONS` naming the option and what it must be.
 */
export function checkShard(value: unknown): FleetShard {
  const shard = typeof value === "object" && value !== null ? (value as Partial<Record<"index" | "count", unknown>>) : {};
  const { index, count } = shard;
  const whole = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n);
  if (!whole(count) || count < 1 || count > MAX_SHARDS || !whole(index) || index < 1 || index > count) {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `Invalid option shard: must be { index, count } with whole numbers 1 <= index <= count <= ${MAX_SHARDS} (got ${describe(value)}).`, {
      details: { option: "shard", value: describe(value) },
    });
  }
  return { index, count };
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return typeof value;
  }
}

/** The weight of `branchId` for shard `index`: the first 48 bits of a SHA-256, as a number. */
function weight(branchId: string, index: number): number {
  return createHash("sha256").update(`${index}\u0000${branchId}`).digest().readUIntBE(0, 6);
}

/** The shard (1 to `count`) a branch belongs to: the one whose weight for its id is highest, the lower index on a tie. */
export function shardOfBranch(branchId: string, count: number): number {
  let best = 1;
  let bestWeight = -1;
  for (let index = 1; index <= count; index += 1) {
    const w = weight(branchId, index);
    if (w > bestWeight) {
      best = index;
      bestWeight = w;
    }
  }
  return best;
}
