/** Snapshots, backup schedules, branch restore and finalize_restore at record level, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BranchResponseSchema, SnapshotSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, type TestClient } from "./helpers.js";

const P = "alice-app-100001";
const MAIN = "br-alice-main-100001";
const B = `/projects/${P}/branches`;

interface BranchReply {
  branch: { id: string; name: string; default: boolean; last_reset_at?: string };
  preserved_branch?: { id: string; name: string };
  replaced_branch?: { id: string; name: string };
  operations: { action: string }[];
}

describe("snapshots and restore", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  const roleNames = async (branchId: string): Promise<string[]> => (await api.call<{ roles: { name: string }[] }>("GET", `${B}/${branchId}/roles`)).body.roles.map((r) => r.name).sort();
  const dbNames = async (branchId: string): Promise<string[]> => (await api.call<{ databases: { name: string }[] }>("GET", `${B}/${branchId}/databases`)).body.databases.map((d) => d.name).sort();
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, clock: new Date("2026-11-20T12:00:00Z") });
    api = client(emu, KEYS.alice);
    emu.clock.advance(3600_000);
  });
  afterAll(() => emu.close());

  describe("snapshots", () => {
    let snapshotId: string;

    it("creates a snapshot of a branch, named as asked, and lists it", async () => {
      const created = await api.call<{ snapshot: unknown }>("POST", `${B}/${MAIN}/snapshot?name=before-migration`);
      expect(created.status).toBe(201);
      const snapshot = SnapshotSchema.parse(created.body.snapshot);
      expect(snapshot).toMatchObject({ name: "before-migration", source_branch_id: MAIN, manual: true });
      snapshotId = snapshot.id;
      const list = await api.call<{ snapshots: { id: string; name: string }[] }>("GET", `/projects/${P}/snapshots`);
      expect(list.body.snapshots.map((s) => [s.id, s.name])).toEqual([[snapshotId, "before-migration"]]);
    });

    it("renames a snapshot", async () => {
      const renamed = await api.call<{ snapshot: { name: string } }>("PATCH", `/projects/${P}/snapshots/${snapshotId}`, { snapshot: { name: "v1" } });
      expect([renamed.status, renamed.body.snapshot.name]).toEqual([200, "v1"]);
      expect((await api.call<{ snapshots: { name: string }[] }>("GET", `/projects/${P}/snapshots`)).body.snapshots.map((s) => s.name)).toEqual(["v1"]);
    });

    it("restores into a new branch holding the roles and databases of the snapshot moment, not later ones", async () => {
      expect((await api.call("POST", `${B}/${MAIN}/roles`, { role: { name: "later" } })).status).toBe(201);
      await emu.settle();
      const restored = await api.call<BranchReply>("POST", `/projects/${P}/snapshots/${snapshotId}/restore`, { name: "from-v1" });
      expect(restored.status).toBe(201);
      expect(restored.body.operations.map((o) => o.action)).toEqual(["create_branch"]);
      await emu.settle();
      const id = restored.body.branch.id;
      expect(await roleNames(id)).toEqual(["neondb_owner"]);
      expect(await roleNames(MAIN)).toEqual(["later", "neondb_owner"]);
      expect(await dbNames(id)).toEqual(["neondb"]);
    });

    it("finalizes a restore: the restored branch takes the target's name, default flag and computes", async () => {
      const restored = await api.call<BranchReply>("POST", `/projects/${P}/snapshots/${snapshotId}/restore`, { name: "candidate" });
      await emu.settle();
      const id = restored.body.branch.id;
      const finalized = await api.call<BranchReply>("POST", `${B}/${id}/finalize_restore`, { name: "main-before-restore" });
      expect(finalized.status).toBe(200);
      expect(finalized.body.branch).toMatchObject({ id, name: "main", default: true });
      expect(finalized.body.replaced_branch).toMatchObject({ id: MAIN, name: "main-before-restore" });
      const endpoints = await api.call<{ endpoints: { id: string }[] }>("GET", `${B}/${id}/endpoints`);
      expect(endpoints.body.endpoints.map((e) => e.id)).toEqual(["ep-alice-main-100001"]);
      expect((await api.call<{ code: string }>("POST", `${B}/${id}/finalize_restore`, {})).status).toBe(422);
    });

    it("deletes a snapshot; it is gone from the list and cannot be restored", async () => {
      expect((await api.call("DELETE", `/projects/${P}/snapshots/${snapshotId}`)).status).toBe(200);
      expect((await api.call<{ snapshots: unknown[] }>("GET", `/projects/${P}/snapshots`)).body.snapshots).toEqual([]);
      expect((await api.call("POST", `/projects/${P}/snapshots/${snapshotId}/restore`, {})).status).toBe(404);
    });
  });

  describe("as the platform's own clients send them", () => {
    const snapshotPath = (id: string): string => `/projects/${P}/snapshots/${id}`;
    const takeSnapshot = async (query = ""): Promise<{ id: string; timestamp: string; lsn: string }> => {
      const created = await api.call<{ snapshot: unknown }>("POST", `${B}/${MAIN}/snapshot${query}`);
      expect(created.status).toBe(201);
      return SnapshotSchema.parse(created.body.snapshot) as { id: string; timestamp: string; lsn: string };
    };

    it("PATCH sets expires_at without a name, returns it, and null clears it", async () => {
      const { id } = await takeSnapshot("?name=keep-a-week");
      const expiresAt = new Date(emu.clock.now() + 7 * 86_400_000).toISOString();
      const set = await api.call<{ snapshot: { name: string; expires_at?: string } }>("PATCH", snapshotPath(id), { snapshot: { expires_at: expiresAt } });
      expect([set.status, set.body.snapshot.name, set.body.snapshot.expires_at]).toEqual([200, "keep-a-week", expiresAt]);
      const listed = await api.call<{ snapshots: { id: string; expires_at?: string }[] }>("GET", `/projects/${P}/snapshots`);
      expect(listed.body.snapshots.find((s) => s.id === id)?.expires_at).toBe(expiresAt);
      const cleared = await api.call<{ snapshot: Record<string, unknown> }>("PATCH", snapshotPath(id), { snapshot: { expires_at: null } });
      expect([cleared.status, "expires_at" in cleared.body.snapshot, cleared.body.snapshot["name"]]).toEqual([200, false, "keep-a-week"]);
      expect((await api.call("PATCH", snapshotPath(id), { snapshot: {} })).status).toBe(200);
    });

    it.each([
      ["an expires_at in the past", { expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
      ["an expires_at that is not a time", { expires_at: "next week" }, "expires_at"],
    ])("PATCH refuses %s with 400 naming the field", async (_label, snapshot, field) => {
      const { id } = await takeSnapshot();
      const res = await api.call<{ message: string }>("PATCH", snapshotPath(id), { snapshot });
      expect([res.status, res.body.message]).toEqual([400, expect.stringContaining(field)]);
    });

    it("a snapshot taken at an LSN records the moment of that LSN as its timestamp", async () => {
      const before = await takeSnapshot();
      emu.clock.advance(120_000);
      const atLsn = await takeSnapshot(`?lsn=${encodeURIComponent(before.lsn)}`);
      expect([atLsn.lsn, atLsn.timestamp]).toEqual([before.lsn, before.timestamp]);
    });

    it("PUT backup_schedule takes entries without retention_seconds (kept until deleted)", async () => {
      const path = `${B}/${MAIN}/backup_schedule`;
      const schedule = [{ frequency: "hourly" }, { frequency: "daily", hour: 2, retention_seconds: 86_400 }];
      const put = await api.call("PUT", path, { schedule });
      expect([put.status, put.body]).toEqual([200, { schedule }]);
      expect((await api.call("GET", path)).body).toEqual({ schedule });
      expect((await api.call("PUT", path, { schedule: [] })).status).toBe(200);
    });

    it("finalize_restore returns the operations that restart the computes it moves", async () => {
      // The default branch holds the computes (an earlier test moved them off the seed's main).
      const branches = await api.call<{ branches: { id: string; default: boolean }[] }>("GET", B);
      const target = branches.body.branches.find((b) => b.default)?.id ?? "";
      const created = await api.call<{ snapshot: { id: string } }>("POST", `${B}/${target}/snapshot`);
      const restored = await api.call<BranchReply>("POST", `/projects/${P}/snapshots/${created.body.snapshot.id}/restore`, { name: "restart-check" });
      await emu.settle();
      const endpoints = await api.call<{ endpoints: { id: string }[] }>("GET", `${B}/${target}/endpoints`);
      const active = endpoints.body.endpoints.map((e) => e.id);
      for (const endpoint of active) expect((await api.call("POST", `/projects/${P}/endpoints/${endpoint}/start`)).status).toBe(200);
      await emu.settle();
      expect(active.length).toBeGreaterThan(0);
      const finalized = await api.call<{ operations: { action: string; endpoint_id?: string; branch_id?: string }[] }>("POST", `${B}/${restored.body.branch.id}/finalize_restore`, {});
      expect(finalized.status).toBe(200);
      expect(finalized.body.operations.map((o) => [o.action, o.branch_id, o.endpoint_id])).toEqual(
        active.flatMap((endpoint) => [
          ["suspend_compute", restored.body.branch.id, endpoint],
          ["start_compute", restored.body.branch.id, endpoint],
        ]),
      );
      await emu.settle();
      expect((await api.call<{ endpoints: { current_state: string }[] }>("GET", `${B}/${restored.body.branch.id}/endpoints`)).body.endpoints.map((e) => e.current_state)).toEqual(active.map(() => "active"));
    });
  });

  describe("backup schedules", () => {
    it("reads an empty schedule, stores a PUT one and reads it back", async () => {
      const path = `${B}/${MAIN}/backup_schedule`;
      expect((await api.call("GET", path)).body).toEqual({ schedule: [] });
      const schedule = [{ frequency: "daily", hour: 3, retention_seconds: 604800 }, { frequency: "weekly", day: 0, hour: 4, retention_seconds: 2592000 }];
      expect((await api.call("PUT", path, { schedule })).body).toEqual({ schedule });
      expect((await api.call("GET", path)).body).toEqual({ schedule });
    });

    it("refuses an unknown frequency with 400 naming the field", async () => {
      const res = await api.call<{ issues: { path: string }[] }>("PUT", `${B}/${MAIN}/backup_schedule`, { schedule: [{ frequency: "yearly", retention_seconds: 1 }] });
      expect(res.status).toBe(400);
      expect(res.body.issues[0]?.path).toBe("schedule.0.frequency");
    });
  });

  describe("branch restore", () => {
    let feature: string;
    beforeAll(async () => {
      const created = await api.call<{ branch: { id: string } }>("POST", B, { branch: { name: "feature" }, endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 }] });
      feature = created.body.branch.id;
      await emu.settle();
      await api.call("POST", `${B}/${feature}/roles`, { role: { name: "scratch" } });
      await emu.settle();
    });

    it("restores a branch from its parent: roles, databases and compute settings follow the source", async () => {
      const parent = (await api.call<{ branch: { parent_id: string } }>("GET", `${B}/${feature}`)).body.branch.parent_id;
      const res = await api.call<BranchReply>("POST", `${B}/${feature}/restore`, { source_branch_id: parent });
      expect(res.status).toBe(200);
      expect(res.body.branch.last_reset_at).toBeDefined();
      expect(res.body.operations.map((o) => o.action)).toEqual(["suspend_compute", "start_compute"]);
      await emu.settle();
      expect(await roleNames(feature)).toEqual(await roleNames(parent));
      const [endpoint] = (await api.call<{ endpoints: { autoscaling_limit_min_cu: number }[] }>("GET", `${B}/${feature}/endpoints`)).body.endpoints;
      const [parentEndpoint] = (await api.call<{ endpoints: { autoscaling_limit_min_cu: number }[] }>("GET", `${B}/${parent}/endpoints`)).body.endpoints;
      expect(endpoint?.autoscaling_limit_min_cu).toBe(parentEndpoint?.autoscaling_limit_min_cu);
    });

    it("keeps the state before the restore under preserve_under_name", async () => {
      await api.call("POST", `${B}/${feature}/roles`, { role: { name: "keepme" } });
      await emu.settle();
      const other = (await api.call<{ branch: { id: string } }>("POST", B, { branch: { name: "other" } })).body.branch.id;
      await emu.settle();
      const res = await api.call<BranchReply>("POST", `${B}/${feature}/restore`, { source_branch_id: other, preserve_under_name: "feature-before" });
      expect(res.status).toBe(200);
      await emu.settle();
      const preserved = res.body.preserved_branch?.id ?? "";
      expect(BranchResponseSchema.parse((await api.call("GET", `${B}/${preserved}`)).body).branch.name).toBe("feature-before");
      expect(await roleNames(preserved)).toContain("keepme");
      expect(await roleNames(feature)).not.toContain("keepme");
    });

    it("restores a branch to a point in its own history, which must lie within it", async () => {
      emu.clock.advance(60_000);
      const inside = new Date(emu.clock.now() - 30_000).toISOString();
      expect((await api.call("POST", `${B}/${feature}/restore`, { source_branch_id: feature, source_timestamp: inside })).status).toBe(200);
      await emu.settle();
      const res = await api.call<{ message: string }>("POST", `${B}/${feature}/restore`, { source_branch_id: feature, source_timestamp: "2020-01-01T00:00:00Z" });
      expect([res.status, res.body.message]).toEqual([422, expect.stringContaining("source_timestamp")]);
    });

    it.each([
      ["without a point in time from itself", (id: string) => ({ source_branch_id: id }), 400],
      ["from a missing branch", () => ({ source_branch_id: "br-missing-000000" }), 404],
      ["without source_branch_id", () => ({}), 400],
    ])("refuses a restore %s", async (_name, body, status) => {
      expect((await api.call("POST", `${B}/${feature}/restore`, body(feature))).status).toBe(status);
    });

    it("refuses to restore a branch with children unless its state is preserved", async () => {
      const res = await api.call<{ message: string }>("POST", `${B}/${MAIN}/restore`, { source_branch_id: feature });
      expect(res.status).toBe(422);
      expect(res.body.message).toContain("preserve_under_name");
    });
  });
});
