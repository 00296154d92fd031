import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { call, query } from "./harness.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ clock: "manual", limits: { claimableStorageBytes: 1_048_576 } });
});
afterAll(async () => {
  await emu?.close();
});

async function createDatabase(): Promise<{ id: string; projectId: string; claimUrl: string; direct: string; pooled: string }> {
  const res = await call(`${emu.claimApiHost}/api/v1/database`, "POST", { ref: "emulator-test" });
  expect(res.status).toBe(201);
  return {
    id: String(res.body["id"]),
    projectId: String(res.body["svc_project_id"]),
    claimUrl: String(res.body["claim_url"]),
    direct: String((res.body["emulator"] as Record<string, unknown>)["direct_connection_string"]),
    pooled: String(res.body["connection_string"]),
  };
}

async function managementGet(path: string, key: string): Promise<number> {
  const res = await fetch(`${emu.apiHost}${path}`, { headers: { authorization: `Bearer ${key}` } });
  await res.text();
  return res.status;
}

describe("claimable databases in startEmulator", () => {
  it("creates real databases under /api/v1 with the emulator's request id and claim URL", async () => {
    const res = await fetch(`${emu.claimApiHost}/api/v1/database`, { method: "POST", body: JSON.stringify({ ref: "rid" }), headers: { "x-request-id": "test-rid-1" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("test-rid-1");
    const db = (await res.json()) as { claim_url: string; connection_string: string; emulator: { direct_connection_string: string } };
    expect(db.claim_url.startsWith(`${emu.url}/claim/`)).toBe(true);
    for (const url of [db.connection_string, db.emulator.direct_connection_string]) expect(await query(url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("hides an unclaimed project from the management API and shows it to the owner after the claim", async () => {
    const db = await createDatabase();
    expect(await managementGet(`/projects/${db.projectId}`, emu.apiKey)).toBe(404);

    const page = await fetch(db.claimUrl);
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const post = (action: string, fields: Record<string, string>, jar: string) =>
      fetch(`${db.claimUrl}/${action}`, { method: "POST", redirect: "manual", headers: { cookie: jar, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
    const signIn = await post("sign-in", { api_key: emu.apiKey, csrf }, cookie);
    expect(signIn.status).toBe(303);
    const session = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const signedIn = await (await fetch(db.claimUrl, { headers: { cookie: session } })).text();
    expect(signedIn).toContain('data-testid="owner-option-personal"');
    const csrf2 = /name="csrf" value="([^"]+)"/.exec(signedIn)?.[1] ?? "";
    expect((await post("transfer", { owner: "personal", project_name: "claimed-app", csrf: csrf2 }, session)).status).toBe(303);
    expect((await call(`${emu.claimApiHost}/api/v1/database/${db.id}`, "GET")).body["status"]).toBe("CLAIMING");

    emu.state.clock.advance(1000);
    const record = (await call(`${emu.claimApiHost}/api/v1/database/${db.id}`, "GET")).body;
    expect(record).toMatchObject({ status: "CLAIMED", connection_string: null, expires_at: null });
    const project = await fetch(`${emu.apiHost}/projects/${db.projectId}`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(project.status).toBe(200);
    expect(((await project.json()) as { project: Record<string, unknown> }).project).toMatchObject({ id: db.projectId, name: "claimed-app", region_id: "aws-us-east-2", pg_version: 17 });
    expect(await query(db.direct, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    const name = `svc_claim_${db.id.replaceAll("-", "")}`;
    for (const pooled of [false, true]) {
      const uriRes = await fetch(`${emu.apiHost}/projects/${db.projectId}/connection_uri?role_name=${name}&database_name=${name}&pooled=${pooled}`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
      expect(uriRes.status).toBe(200);
      const { uri } = (await uriRes.json()) as { uri: string };
      expect(uri).toBe(pooled ? db.pooled : db.direct);
      expect(await query(uri, "SELECT current_database() AS db")).toEqual([{ db: name }]);
    }
  });

  it("runs the storage check through POST /__emulator/instant/check-storage for admin keys only", async () => {
    const db = await createDatabase();
    expect((await fetch(`${emu.url}/__emulator/instant/check-storage`, { method: "POST" })).status).toBe(401);
    const res = await fetch(`${emu.url}/__emulator/instant/check-storage`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(200);
    const record = (await call(`${emu.claimApiHost}/api/v1/database/${db.id}`, "GET")).body;
    expect((record["emulator"] as Record<string, unknown>)["read_only"]).toBe(true);
    await expect(query(db.direct, "CREATE TABLE t (v int)")).rejects.toMatchObject({ code: "25006" });
  });

  it("expires databases on the emulator clock", async () => {
    const db = await createDatabase();
    emu.state.clock.advance(72 * 3_600_000);
    const res = await call(`${emu.claimApiHost}/api/v1/database/${db.id}`, "GET");
    expect(res.status).toBe(400);
    expect(res.body["message"]).toBe("Database not found");
    await expect(query(db.pooled, "SELECT 1")).rejects.toThrow();
  });
});
