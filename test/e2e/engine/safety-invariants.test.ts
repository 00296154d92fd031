/**
 * The engine's safety invariants against the emulator over real HTTP: options and names never
 * answer through `Object.prototype`, a delete is decided from what the branch itself still
 * uses, and a delete's guard is read again right before its request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { SEEDED, type BranchSeed, seedWith } from "../../helpers/seed-branch.js";
import { ApplyFailedError, apply, defineConfig, isPlatformError, plan, pushConfig, type PolicyConfig } from "../../../src/v1.js";

const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };
const { projectId: PROJECT, branchId: BRANCH, apiKey: KEY } = SEEDED;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timings: INSTANT, seed: seedWith({}), apiKey: KEY });
});
afterAll(async () => emu.close());

const options = () => ({ projectId: PROJECT, branchId: BRANCH, apiKey: KEY, apiHost: emu.apiHost });
/** The branch's resources as the emulator stores them. */
const platformState = (): unknown => emu.state.snapshot().projects;

async function reseed(branch: Partial<BranchSeed>): Promise<void> {
  await emu.state.reset(seedWith(branch));
}

async function errorOf(run: Promise<unknown>): Promise<unknown> {
  return run.then(() => undefined, (e: unknown) => e);
}

describe("invariant: options and names never answer through Object.prototype", () => {
  beforeEach(() => reseed({ buckets: [{ name: "media" }], objects: [{ bucket: "media", key: "cat.jpg" }] }));

  it("a polluted Object.prototype.allowDataLoss does not let a prune delete a bucket holding objects", async () => {
    const before = platformState();
    Object.defineProperty(Object.prototype, "allowDataLoss", { value: true, configurable: true });
    let err: unknown;
    try {
      err = await errorOf(apply(defineConfig({ prune: { buckets: true } }), { ...options(), updateExisting: true }));
    } finally {
      delete (Object.prototype as Record<string, unknown>).allowDataLoss;
    }
    expect(isPlatformError(err, "PLATFORM_PUSH_CONFLICT")).toBe(true);
    expect((err as Error).message).toContain("bucket media would be pruned but holds objects");
    expect(platformState()).toEqual(before);
  });

  it("a database named like an Object.prototype member is planned as absent, not as an update of the prototype", async () => {
    const result = await plan(defineConfig({ databases: { hasOwnProperty: { owner: "neondb_owner" } } }), options());
    expect(result.changes.map((c) => c.id)).toEqual(["create:database.hasOwnProperty"]);
  });

  it("a live database named __proto__ still counts as owned: its owner role is never pruned", async () => {
    await reseed({ roles: [{ name: "neondb_owner" }, { name: "victim" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "__proto__", owner_name: "victim" }] });
    const result = await plan(defineConfig({ roles: { neondb_owner: {} }, databases: { neondb: { owner: "neondb_owner" } }, prune: { roles: true } }), options());
    expect(result.changes).toEqual([]);
    expect(result.conflicts).toContainEqual(expect.objectContaining({ code: "STILL_REFERENCED", kind: "role", identifier: "victim", current: ['database __proto__'] }));
  });
});

describe("invariant: never delete what something live still needs", () => {
  const PRUNE_ALL_DATABASES: PolicyConfig = { roles: {}, databases: {}, prune: { roles: true, databases: true } };

  it.each([
    ["the auth integration", { auth: { auth_provider: "better_auth", database_name: "neondb" } }, "the auth integration on the branch"],
    ["a Data API", { data_api: [{ database: "neondb" }] }, "the Data API on the branch"],
    ["a Data API on another database", { databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "app", owner_name: "neondb_owner" }], data_api: [{ database: "app" }] }, "the Data API on the branch"],
  ])("prune keeps a database %s uses, whatever the policy says about it, and names the user", async (_label, extra, user) => {
    await reseed(extra as Partial<BranchSeed>);
    const before = platformState();
    const err = await errorOf(apply(defineConfig(PRUNE_ALL_DATABASES), { ...options(), updateExisting: true, allowDataLoss: true }));
    expect(isPlatformError(err, "PLATFORM_PUSH_CONFLICT")).toBe(true);
    expect((err as Error).message).toContain(user);
    expect((err as { conflicts: { code: string; kind: string }[] }).conflicts).toContainEqual(expect.objectContaining({ code: "STILL_REFERENCED", kind: "database" }));
    expect(platformState()).toEqual(before);
  });
});

describe("invariant: a delete's guard is read again right before its request", () => {
  const upload = async (bucket: string, key: string): Promise<void> => {
    const base = `${emu.apiHost}/projects/${PROJECT}/branches/${BRANCH}/buckets/${bucket}/objects/${key}`;
    const presigned = await fetch(`${base}/presign`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify({ operation: "upload" }) });
    const { url } = (await presigned.json()) as { url: string };
    const put = await fetch(url, { method: "PUT", body: "late" });
    expect(put.ok).toBe(true);
  };

  it("an object uploaded after the plan keeps its bucket: the delete fails typed and nothing is deleted", async () => {
    await reseed({ buckets: [{ name: "media" }] });
    const err = await errorOf(pushConfig(defineConfig({ prune: { buckets: true } }), {
      ...options(),
      confirm: async () => {
        await upload("media", "late.jpg");
        return true;
      },
    }));
    expect(err).toBeInstanceOf(ApplyFailedError);
    const failed = (err as ApplyFailedError).result.failed;
    expect(failed.map((f) => [f.change.id, f.error.code])).toEqual([["delete:bucket.media", "PLATFORM_GUARD_CHANGED"]]);
    expect(failed[0]?.error.message).toContain("was empty when planned and now holds objects; nothing was deleted");
    const buckets = await fetch(`${emu.apiHost}/projects/${PROJECT}/branches/${BRANCH}/buckets`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(JSON.stringify(await buckets.json())).toContain('"media"');
  });

  it("a Data API switched on after the plan keeps its database", async () => {
    await reseed({ databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "scratch", owner_name: "neondb_owner" }] });
    const err = await errorOf(pushConfig(defineConfig({ databases: { neondb: { owner: "neondb_owner" } }, prune: { databases: true } }), {
      ...options(),
      allowDataLoss: true,
      confirm: async () => {
        const res = await fetch(`${emu.apiHost}/projects/${PROJECT}/branches/${BRANCH}/data-api/scratch`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify({ auth_provider: "external", jwks_url: "https://id.example.com/.well-known/jwks.json" }) });
        expect(res.status).toBeLessThan(300);
        return true;
      },
    }));
    expect(err).toBeInstanceOf(ApplyFailedError);
    expect((err as ApplyFailedError).result.failed.map((f) => [f.change.id, f.error.code])).toEqual([["delete:database.scratch", "PLATFORM_GUARD_CHANGED"]]);
    const databases = await fetch(`${emu.apiHost}/projects/${PROJECT}/branches/${BRANCH}/databases`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await databases.json()) as { databases: { name: string }[] }).databases.map((d) => d.name).sort()).toEqual(["neondb", "scratch"]);
  });
});
