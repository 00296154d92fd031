import { describe, expect, it } from "vitest";
import type { ReplicaSeed } from "../../../src/api/wire/replica-seed.js";
import { type PooledReplica, ReplicaPool } from "../../../src/engine/replica-pool.js";

function seedOf(apiKey: string, projectName: string): ReplicaSeed {
  const owner = "owner@example.test";
  return {
    version: 1,
    users: [{ email: owner, plan: "scale", api_keys: [{ name: "replica", key: apiKey, admin: true }] }],
    regions: [{ region_id: "aws-us-east-2", platform_features: true }],
    projects: [{ owner, id: `${projectName}-1`, name: projectName, region_id: "aws-us-east-2", pg_version: 17, branches: [{ name: "main", default: true }] }],
  };
}

/** The project names the replica shows to its key. */
async function projectNames(replica: PooledReplica, apiKey: string): Promise<string[]> {
  const response = await replica.fetch(`${replica.apiHost}/projects`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { projects: { name: string }[] };
  return body.projects.map((p) => p.name);
}

/** Verifies two plans one after the other on `pool`: the same replica, each seeing only its own seed. */
async function expectOwnSeedsOnOneReplica(pool: ReplicaPool): Promise<void> {
    const seen: { replica: PooledReplica; names: string[] }[] = [];
    for (const name of ["first", "second"]) {
      await pool.use((key) => seedOf(key, name), async (replica, key) => {
        seen.push({ replica, names: await projectNames(replica, key) });
      });
    }
    expect(seen.map((s) => s.names)).toEqual([["first"], ["second"]]);
    expect(seen[1]?.replica).toBe(seen[0]?.replica);
}

describe("a pool of replicas that outlives its run", () => {
  it("verifies one plan after another on the same replica, each seeing only its own seed", async () => {
    const pool = new ReplicaPool(1, { emptyWhenIdle: true });
    await expectOwnSeedsOnOneReplica(pool);
  });

  it("builds its replica ahead when warmed, and the first verification there sees its own seed only", async () => {
    const pool = new ReplicaPool(1, { emptyWhenIdle: true });
    pool.warm();
    pool.warm();
    await expectOwnSeedsOnOneReplica(pool);
  });

  it("holds nothing of a plan once its verification ended", async () => {
    const pool = new ReplicaPool(1, { emptyWhenIdle: true });
    let used: { replica: PooledReplica; key: string } | undefined;
    await pool.use((key) => seedOf(key, "held"), async (replica, key) => {
      used = { replica, key };
    });
    if (used === undefined) throw new Error("the pool never ran the verification");
    expect(await projectNames(used.replica, used.key)).toEqual([]);
  });
});
