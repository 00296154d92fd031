/**
 * Reads that clients written against the platform (not this code base) make and depend on: the
 * values must be usable as returned, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BranchCreateResponseSchema, BranchResponseSchema, DataApiUpdateRequestSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, deploy, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, zipOf, type TestClient } from "./helpers.js";

const P = "alice-app-100001";
const B = `/projects/${P}/branches/br-alice-main-100001`;

describe("clients written against the platform", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, clock: new Date("2026-11-20T12:00:00Z") });
    api = client(emu, KEYS.alice);
    // The seeded branches were created at 12:00; two hours of history exist from here on.
    emu.clock.advance(2 * 3600_000);
  });
  afterAll(() => emu.close());

  describe("the Data API settings", () => {
    it("reads the effective settings of a Data API created without settings, with every documented field", async () => {
      expect((await api.call("POST", `${B}/data-api/neondb`, {})).status).toBe(201);
      const read = await api.call<{ settings: Record<string, unknown> | null }>("GET", `${B}/data-api/neondb`);
      expect(read.body.settings).not.toBeNull();
      expect(Object.keys(read.body.settings ?? {}).sort()).toEqual([
        "db_aggregates_enabled",
        "db_anon_role",
        "db_extra_search_path",
        "db_max_rows",
        "db_schemas",
        "jwt_cache_max_lifetime",
        "jwt_role_claim_key",
        "openapi_mode",
        "server_cors_allowed_origins",
        "server_timing_enabled",
      ]);
      expect(read.body.settings).toMatchObject({ db_schemas: ["public"], db_max_rows: 1000 });
    });

    it("lets a client PATCH back what it read, changing one field, and reads the change with the rest kept", async () => {
      const read = await api.call<{ settings: Record<string, unknown> }>("GET", `${B}/data-api/neondb`);
      const patch = { settings: { ...read.body.settings, db_max_rows: 50, db_schemas: ["public", "api"] } };
      // The read body is a valid request body of the same API.
      expect(DataApiUpdateRequestSchema.safeParse(patch).success).toBe(true);
      expect((await api.call("PATCH", `${B}/data-api/neondb`, patch)).status).toBe(201);
      const again = await api.call<{ settings: Record<string, unknown> }>("GET", `${B}/data-api/neondb`);
      expect(again.body.settings).toEqual({ ...read.body.settings, db_max_rows: 50, db_schemas: ["public", "api"] });
    });

    it("keeps settings given at creation and fills the rest with the defaults", async () => {
      await api.call("POST", `${B}/databases`, { database: { name: "app", owner_name: "neondb_owner" } });
      await emu.settle();
      expect((await api.call("POST", `${B}/data-api/app`, { settings: { db_anon_role: "web_anon" } })).status).toBe(201);
      const read = await api.call<{ settings: Record<string, unknown> }>("GET", `${B}/data-api/app`);
      expect(read.body.settings).toMatchObject({ db_anon_role: "web_anon", db_schemas: ["public"], db_max_rows: 1000 });
    });
  });

  describe("branch creation", () => {
    it("echoes parent_timestamp and parent_lsn as given", async () => {
      const created = await api.call("POST", `/projects/${P}/branches`, { branch: { name: "pitr", parent_timestamp: "2026-11-20T13:30:00Z", parent_lsn: "0/2F5A6B8" } });
      expect(created.status).toBe(201);
      const branch = BranchCreateResponseSchema.parse(created.body).branch;
      expect([branch.parent_lsn, branch.parent_timestamp && Date.parse(branch.parent_timestamp)]).toEqual(["0/2F5A6B8", Date.parse("2026-11-20T13:30:00Z")]);
      const read = BranchResponseSchema.parse((await api.call("GET", `/projects/${P}/branches/${branch.id}`)).body).branch;
      expect([read.parent_lsn, read.parent_timestamp && Date.parse(read.parent_timestamp)]).toEqual(["0/2F5A6B8", Date.parse("2026-11-20T13:30:00Z")]);
    });

    it("gives branches created without them the creation time and LSNs that grow with the clock", async () => {
      const first = BranchCreateResponseSchema.parse((await api.call("POST", `/projects/${P}/branches`, { branch: { name: "now-1" } })).body).branch;
      emu.clock.advance(60_000);
      const second = BranchCreateResponseSchema.parse((await api.call("POST", `/projects/${P}/branches`, { branch: { name: "now-2" } })).body).branch;
      expect(first.parent_timestamp).toBe(first.created_at);
      expect(second.parent_timestamp).toBe(second.created_at);
      const lsn = (text: string | undefined): bigint => {
        const [hi = "0", lo = "0"] = (text ?? "").split("/");
        return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
      };
      expect(lsn(second.parent_lsn)).toBeGreaterThan(lsn(first.parent_lsn));
    });

    it.each([
      ["a malformed LSN", { parent_lsn: "latest" }, 400],
      ["a timestamp in the future", { parent_timestamp: "2027-01-01T00:00:00Z" }, 422],
      ["a timestamp before the parent's history", { parent_timestamp: "2020-01-01T00:00:00Z" }, 422],
    ])("refuses %s, naming the field", async (_name, input, status) => {
      const res = await api.call<{ message: string }>("POST", `/projects/${P}/branches`, { branch: { name: "refused", ...input } });
      expect(res.status).toBe(status);
      expect(res.body.message).toContain(`branch.${Object.keys(input)[0]}`);
    });
  });

  it("answers GET /users/me with the account record the platform's API description requires", async () => {
    const me = await api.call<Record<string, unknown>>("GET", "/users/me");
    expect(me.status).toBe(200);
    for (const field of ["active_seconds_limit", "auth_accounts", "billing_account", "email", "id", "image", "last_name", "login", "name", "plan", "projects_limit", "branches_limit", "max_autoscaling_limit"]) {
      expect([field, me.body[field]]).not.toEqual([field, undefined]);
    }
    expect(me.body).toMatchObject({ email: "alice@example.test", name: "Alice", last_name: "", login: "alice", plan: "scale" });
    expect(me.body["auth_accounts"]).toEqual([expect.objectContaining({ email: "alice@example.test", provider: expect.any(String) })]);
    expect(me.body["billing_account"]).toMatchObject({ subscription_type: "scale", email: "alice@example.test" });
    expect(me.body["active_seconds_limit"]).toBeGreaterThan(0);
    const bob = await client(emu, KEYS.bob).call<Record<string, unknown>>("GET", "/users/me");
    expect((bob.body["active_seconds_limit"] as number) < (me.body["active_seconds_limit"] as number)).toBe(true);
  });

  it("reports the platform's fixed 2048 MiB on every deployment", async () => {
    const created = await deploy(emu, `${B}/functions/mem/deployments`, { zip: await zipOf({ "index.mjs": "export default 1" }) }, KEYS.alice);
    expect((created.body["deployment"] as { memory_mib: number }).memory_mib).toBe(2048);
    await emu.settle();
    const fn = await api.call<{ function: { active_deployment: { memory_mib: number } } }>("GET", `${B}/functions/mem`);
    expect(fn.body.function.active_deployment.memory_mib).toBe(2048);
    const seeded = await api.call<{ function: { active_deployment: { memory_mib: number } } }>("GET", `${B}/functions/hello`);
    expect(seeded.body.function.active_deployment.memory_mib).toBe(2048);
  });
});
