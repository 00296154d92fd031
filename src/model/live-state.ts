import type { ComputeValues } from "../kinds/compute/fields.js";
import type { KindLiveFields, LiveSlices } from "../kinds/index.js";

/**
 * The live state of one branch in the normalised shape the diff reads.
 * Lists are sorted by identifier; timestamps RFC 3339 UTC; hostnames lowercase; cron whitespace
 * collapsed. A field left `undefined` was not read (the policy did not need it); `[]` = read, none.
 * Beside the base read (project, branch), each kind declares its fields (its facts'
 * `liveFields`, `kinds/<kind>/index.ts`) and its read builds them.
 */
export interface LiveState extends KindLiveFields {
  project: {
    id: string;
    name: string;
    regionId: string;
    pgVersion: number;
    orgId?: string;
    defaultCompute: Partial<ComputeValues>;
  };
  branch: {
    id: string;
    name: string;
    parentId?: string;
    createdAt: string;
    expiresAt?: string;
    protected: boolean;
    isDefault: boolean;
  };
  /** The slices of the kinds that read their own part (read replicas, …), by kind; absent when none read anything. */
  kinds?: LiveSlices;
}
