import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BranchCreateResponseSchema, BranchListResponseSchema, EndpointOperationsResponseSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator, TWO_ACCOUNTS_SEED, type TestClient } from "./helpers.js";

const P = "alice-app-100001";
const MAIN = "br-alice-main-100001";

describe("branches", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
    api = client(emu);
  });
  afterAll(() => emu.close());

  it("creates a branch from the default branch with no body at all, named after its id", async () => {
    const res = await fetch(`${emu.apiHost}/projects/${P}/branches`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(201);
    const body = BranchCreateResponseSchema.parse(await res.json());
    expect(body.branch.name).toBe(body.branch.id);
    expect(body.branch.parent_id).toBe(MAIN);
    expect(body.endpoints).toEqual([]);
    expect(body.connection_uris).toBeUndefined();
  });

  it("copies roles, databases, buckets, functions and triggers to the child; triggers disabled, functions inherited", async () => {
    const res = await api.call("POST", `/projects/${P}/branches`, { branch: { name: "child" }, endpoints: [{ type: "read_write" }] });
    const body = BranchCreateResponseSchema.parse(res.body);
    expect(body.roles.map((r) => r.name)).toEqual(["neondb_owner"]);
    expect(body.databases.map((d) => d.name)).toEqual(["neondb"]);
    expect(body.connection_uris?.[0]?.connection_uri).toMatch(/^postgresql:\/\/neondb_owner:/);
    const child = body.branch.id;
    const buckets = await api.call<{ buckets: { name: string }[] }>("GET", `/projects/${P}/branches/${child}/buckets`);
    expect(buckets.body.buckets.map((b) => b.name)).toEqual(["uploads"]);
    const triggers = await api.call<{ triggers: { name: string; enabled: boolean; inherited: boolean; next_run_at: string | null }[] }>("GET", `/projects/${P}/branches/${child}/triggers`);
    expect(triggers.body.triggers.map((t) => [t.name, t.enabled, t.inherited, t.next_run_at])).toEqual([["hourly", false, true, null]]);
    const fn = await api.call("GET", `/projects/${P}/branches/${child}/functions/hello`);
    expect(fn.status).toBe(200);
    expect((await api.call("PATCH", `/projects/${P}/branches/${child}/functions/hello`, { name: "x" })).status).toBe(404);
    expect((await api.call("DELETE", `/projects/${P}/branches/${child}/functions/hello`)).status).toBe(404);
    const roles = await api.call<{ roles: { name: string }[] }>("GET", `/projects/${P}/branches/${child}/roles`);
    expect(roles.body.roles.map((r) => r.name)).toEqual(["neondb_owner"]);
  });

  it.each([
    ["a taken name", { branch: { name: "main" } }, 409],
    ["an unknown parent", { branch: { parent_id: "br-nope-000000" } }, 404],
    ["two read_write endpoints", { endpoints: [{ type: "read_write" }, { type: "read_write" }] }, 400],
    ["an expiry in the past", { branch: { name: "old", expires_at: "2001-01-01T00:00:00Z" } }, 400],
    ["an unknown endpoint type", { endpoints: [{ type: "read_many" }] }, 400],
  ])("refuses a branch with %s", async (_name, body, status) => {
    const res = await api.call<{ request_id: string }>("POST", `/projects/${P}/branches`, body);
    expect(res.status).toBe(status);
    expect(res.body.request_id).toBeTruthy();
  });

  it("lists branches with next-flavour pagination carrying next and cursor with the same value", async () => {
    for (const name of ["pg-1", "pg-2", "pg-3"]) await api.call("POST", `/projects/${P}/branches`, { branch: { name } });
    const names: string[] = [];
    let next: string | undefined;
    do {
      const res = await api.call("GET", `/projects/${P}/branches?limit=2&sort_by=name&sort_order=asc${next ? `&cursor=${next}` : ""}`);
      const body = BranchListResponseSchema.parse(res.body);
      names.push(...body.branches.map((b) => b.name));
      expect(body.pagination?.next).toBe(body.pagination?.cursor);
      next = body.pagination?.next;
    } while (next);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["main", "child", "pg-1", "pg-2", "pg-3"]));
    const count = await api.call<{ count: number }>("GET", `/projects/${P}/branches/count`);
    expect(count.body.count).toBe(names.length);
  });

  it("refuses a cursor reused with different sort parameters", async () => {
    const first = BranchListResponseSchema.parse((await api.call("GET", `/projects/${P}/branches?limit=1&sort_by=name`)).body);
    const res = await api.call("GET", `/projects/${P}/branches?limit=1&sort_by=created_at&cursor=${first.pagination?.next}`);
    expect(res.status).toBe(400);
  });

  it("renames, protects and clears the expiry with PATCH, returning no operations", async () => {
    const created = BranchCreateResponseSchema.parse((await api.call("POST", `/projects/${P}/branches`, { branch: { name: "patch-me", expires_at: "2099-01-01T00:00:00Z" } })).body);
    const id = created.branch.id;
    expect(created.branch.expires_at).toBe("2099-01-01T00:00:00.000Z");
    const res = await api.call<{ branch: { name: string; protected: boolean; expires_at?: string }; operations: unknown[] }>("PATCH", `/projects/${P}/branches/${id}`, { branch: { name: "patched", protected: true, expires_at: null } });
    expect(res.status).toBe(200);
    expect([res.body.branch.name, res.body.branch.protected, res.body.branch.expires_at, res.body.operations]).toEqual(["patched", true, undefined, []]);
    expect((await api.call("DELETE", `/projects/${P}/branches/${id}`)).status).toBe(409);
  });

  it("moves the default flag with set_as_default and refuses to delete the default branch", async () => {
    const created = BranchCreateResponseSchema.parse((await api.call("POST", `/projects/${P}/branches`, { branch: { name: "next-default" } })).body);
    const res = await api.call<{ branch: { default: boolean } }>("POST", `/projects/${P}/branches/${created.branch.id}/set_as_default`);
    expect(res.body.branch.default).toBe(true);
    const old = await api.call<{ branch: { default: boolean } }>("GET", `/projects/${P}/branches/${MAIN}`);
    expect(old.body.branch.default).toBe(false);
    expect((await api.call<{ code: string }>("DELETE", `/projects/${P}/branches/${created.branch.id}`)).status).toBe(409);
    await api.call("POST", `/projects/${P}/branches/${MAIN}/set_as_default`);
  });

  it("refuses to delete a branch with children, then cascades a leaf delete: endpoints, domains and all", async () => {
    const parent = BranchCreateResponseSchema.parse((await api.call("POST", `/projects/${P}/branches`, { branch: { name: "parent" }, endpoints: [{ type: "read_write" }] })).body);
    const leaf = BranchCreateResponseSchema.parse((await api.call("POST", `/projects/${P}/branches`, { branch: { name: "leaf", parent_id: parent.branch.id }, endpoints: [{ type: "read_write" }] })).body);
    expect((await api.call("DELETE", `/projects/${P}/branches/${parent.branch.id}`)).status).toBe(409);
    const domain = await api.call("POST", `/projects/${P}/branches/${leaf.branch.id}/custom-domains`, { domain: "leaf.cascade-test.com", entity_type: "function", entity_id: "hello" });
    expect(domain.status).toBe(201);
    const del = await api.call<{ operations: { action: string }[] }>("DELETE", `/projects/${P}/branches/${leaf.branch.id}`);
    expect(del.status).toBe(200);
    expect(del.body.operations.map((o) => o.action)).toEqual(["suspend_compute", "delete_timeline"]);
    expect((await api.call("GET", `/projects/${P}/branches/${leaf.branch.id}`)).status).toBe(404);
    const eps = await api.call<{ endpoints: { branch_id: string }[] }>("GET", `/projects/${P}/endpoints`);
    expect(eps.body.endpoints.map((e) => e.branch_id)).not.toContain(leaf.branch.id);
    const again = await api.call("POST", `/projects/${P}/branches/${parent.branch.id}/custom-domains`, { domain: "leaf.cascade-test.com", entity_type: "function", entity_id: "hello" });
    expect(again.status).toBe(201);
    expect((await api.call("DELETE", `/projects/${P}/branches/${leaf.branch.id}`)).status).toBe(204);
  });

  it("deletes an expired branch once the clock passes its expires_at", async () => {
    const manual = await startTestEmulator({ clock: new Date("2030-01-01T00:00:00Z") });
    try {
      const c = client(manual);
      const b = BranchCreateResponseSchema.parse((await c.call("POST", `/projects/${manual.projectId}/branches`, { branch: { name: "ttl", expires_at: "2030-01-01T01:00:00Z" } })).body);
      manual.clock.advance(3_600_000);
      expect((await c.call("GET", `/projects/${manual.projectId}/branches/${b.branch.id}`)).status).toBe(404);
    } finally {
      await manual.close();
    }
  });
});

describe("compute endpoints", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator();
    api = client(emu);
  });
  afterAll(() => emu.close());

  it("starts an idle endpoint, skips a second start, suspends, restarts and reports the states", async () => {
    const list = await api.call<{ endpoints: { id: string; current_state: string }[] }>("GET", `/projects/${emu.projectId}/branches/${emu.defaultBranchId}/endpoints`);
    const ep = list.body.endpoints[0];
    expect(ep?.current_state).toBe("idle");
    const path = `/projects/${emu.projectId}/endpoints/${ep?.id}`;
    const start = EndpointOperationsResponseSchema.parse((await api.call("POST", `${path}/start`)).body);
    expect(start.operations.map((o) => [o.action, o.status])).toEqual([["start_compute", "finished"]]);
    expect(start.endpoint.current_state).toBe("active");
    const again = EndpointOperationsResponseSchema.parse((await api.call("POST", `${path}/start`)).body);
    expect(again.operations.map((o) => o.status)).toEqual(["skipped"]);
    const restart = EndpointOperationsResponseSchema.parse((await api.call("POST", `${path}/restart`)).body);
    expect(restart.operations.map((o) => o.action)).toEqual(["suspend_compute", "start_compute"]);
    const suspend = EndpointOperationsResponseSchema.parse((await api.call("POST", `${path}/suspend`)).body);
    expect(suspend.endpoint.current_state).toBe("idle");
  });

  it("patches compute limits with an apply_config operation and refuses min above max with 422", async () => {
    const list = await api.call<{ endpoints: { id: string }[] }>("GET", `/projects/${emu.projectId}/endpoints`);
    const path = `/projects/${emu.projectId}/endpoints/${list.body.endpoints[0]?.id}`;
    const ok = EndpointOperationsResponseSchema.parse((await api.call("PATCH", path, { endpoint: { autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 4, suspend_timeout_seconds: 600 } })).body);
    expect([ok.endpoint.autoscaling_limit_min_cu, ok.endpoint.autoscaling_limit_max_cu, ok.endpoint.suspend_timeout_seconds]).toEqual([0.5, 4, 600]);
    expect(ok.operations.map((o) => o.action)).toEqual(["apply_config"]);
    expect((await api.call("PATCH", path, { endpoint: { autoscaling_limit_min_cu: 8, autoscaling_limit_max_cu: 2 } })).status).toBe(422);
    expect((await api.call("PATCH", path, { endpoint: { autoscaling_limit_max_cu: 3.5 } })).status).toBe(400);
  });

  it("creates a read_only endpoint, refuses a second read_write one, and deletes (204 when already gone)", async () => {
    const ro = await api.call<{ endpoint: { id: string; type: string } }>("POST", `/projects/${emu.projectId}/endpoints`, { endpoint: { branch_id: emu.defaultBranchId, type: "read_only" } });
    expect(ro.status).toBe(201);
    expect((await api.call("POST", `/projects/${emu.projectId}/endpoints`, { endpoint: { branch_id: emu.defaultBranchId, type: "read_write" } })).status).toBe(409);
    expect((await api.call("POST", `/projects/${emu.projectId}/endpoints`, { endpoint: { branch_id: "br-missing-000000", type: "read_only" } })).status).toBe(404);
    expect((await api.call("DELETE", `/projects/${emu.projectId}/endpoints/${ro.body.endpoint.id}`)).status).toBe(200);
    expect((await api.call("DELETE", `/projects/${emu.projectId}/endpoints/${ro.body.endpoint.id}`)).status).toBe(204);
  });

  it("refuses to start a disabled endpoint with 409", async () => {
    const list = await api.call<{ endpoints: { id: string }[] }>("GET", `/projects/${emu.projectId}/endpoints`);
    const path = `/projects/${emu.projectId}/endpoints/${list.body.endpoints[0]?.id}`;
    await api.call("PATCH", path, { endpoint: { disabled: true } });
    expect((await api.call("POST", `${path}/start`)).status).toBe(409);
    await api.call("PATCH", path, { endpoint: { disabled: false } });
  });
});

describe("roles, databases and connection URIs", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  let base: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    api = client(emu);
    base = `/projects/${emu.projectId}/branches/${emu.defaultBranchId}`;
  });
  afterAll(() => emu.close());

  it("creates a role with a password shown once, reveals it, and resets it", async () => {
    const created = await api.call<{ role: { name: string; password: string }; operations: { action: string }[] }>("POST", `${base}/roles`, { role: { name: "app" } });
    expect(created.status).toBe(201);
    expect(created.body.role.password).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(created.body.operations.map((o) => o.action)).toEqual(["apply_config"]);
    const got = await api.call<{ role: { password?: string } }>("GET", `${base}/roles/app`);
    expect(got.body.role.password).toBeUndefined();
    const revealed = await api.call<{ password: string }>("GET", `${base}/roles/app/reveal_password`);
    expect(revealed.body.password).toBe(created.body.role.password);
    const reset = await api.call<{ role: { password: string } }>("POST", `${base}/roles/app/reset_password`);
    expect(reset.body.role.password).not.toBe(created.body.role.password);
    expect((await api.call("POST", `${base}/roles`, { role: { name: "app" } })).status).toBe(409);
  });

  it("creates, renames and deletes a database; refuses an unknown owner and a role that owns a database", async () => {
    expect((await api.call("POST", `${base}/databases`, { database: { name: "shop", owner_name: "ghost" } })).status).toBe(404);
    const created = await api.call<{ database: { id: number; name: string; owner_name: string } }>("POST", `${base}/databases`, { database: { name: "shop", owner_name: "app" } });
    expect(created.status).toBe(201);
    expect(typeof created.body.database.id).toBe("number");
    expect((await api.call("DELETE", `${base}/roles/app`)).status).toBe(409);
    const renamed = await api.call<{ database: { name: string } }>("PATCH", `${base}/databases/shop`, { database: { name: "store" } });
    expect(renamed.body.database.name).toBe("store");
    expect((await api.call("GET", `${base}/databases/shop`)).status).toBe(404);
    expect((await api.call("DELETE", `${base}/databases/store`)).status).toBe(200);
    expect((await api.call("DELETE", `${base}/roles/app`)).status).toBe(200);
  });

  it("builds direct and pooled connection URIs that point at .emulator.invalid hosts", async () => {
    const direct = await api.call<{ uri: string }>("GET", `/projects/${emu.projectId}/connection_uri?database_name=neondb&role_name=neondb_owner`);
    expect(direct.body.uri).toMatch(/^postgresql:\/\/neondb_owner:[A-Za-z0-9]{24}@ep-[a-z0-9-]+\.us-east-2\.aws\.emulator\.invalid\/neondb\?sslmode=require$/);
    const pooled = await api.call<{ uri: string }>("GET", `/projects/${emu.projectId}/connection_uri?database_name=neondb&role_name=neondb_owner&pooled=true`);
    expect(pooled.body.uri).toMatch(/@ep-[a-z0-9-]+-pooler\./);
    expect((await api.call("GET", `/projects/${emu.projectId}/connection_uri?database_name=neondb`)).status).toBe(400);
    expect((await api.call("GET", `/projects/${emu.projectId}/connection_uri?database_name=nope&role_name=neondb_owner`)).status).toBe(404);
  });
});
