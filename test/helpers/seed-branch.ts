/** An emulator seed of one project with one default branch, for tests that start from a known live state. */
import type { SeedDocument } from "../../src/emulator/index.js";

/** The seeded project's id, its default branch's id and the admin key. */
export const SEEDED = Object.freeze({ projectId: "seeded-project", branchId: "br-seeded-main", apiKey: "svc_test_seeded_branch_admin_key" });

/** One branch of a seed document (roles, databases, buckets, objects, functions, auth, Data APIs, …). */
export type BranchSeed = NonNullable<NonNullable<SeedDocument["projects"]>[number]["branches"]>[number];

/**
 * The seed: the default branch `main` as the platform makes it (a read-write endpoint, `neondb`
 * owned by `neondb_owner`) with `branch` applied over it, plus `others` as further branches.
 */
export function seedWith(branch: Partial<BranchSeed> = {}, others: readonly BranchSeed[] = []): SeedDocument {
  return {
    version: 1,
    users: [{ email: "owner@seeded.invalid", plan: "scale", api_keys: [{ name: "admin", key: SEEDED.apiKey, admin: true }] }],
    regions: [{ region_id: "aws-us-east-2", platform_features: true }],
    projects: [{
      owner: "owner@seeded.invalid", id: SEEDED.projectId, name: "seeded", region_id: "aws-us-east-2", pg_version: 17,
      branches: [
        { id: SEEDED.branchId, name: "main", default: true, endpoints: [{ type: "read_write" }], roles: [{ name: "neondb_owner" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }], ...branch },
        ...others,
      ],
    }],
  } as SeedDocument;
}
