import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { call, managementCall, query } from "./harness.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ realDatabases: true, clock: "manual", timings: { opSchedulingMs: 0, opRunMs: 0 } });
}, 120_000);
afterAll(async () => {
  await emu?.close();
});

function api(method: string, path: string, body?: unknown): ReturnType<typeof managementCall> {
  return managementCall(emu, method, path, body);
}

/** The real URI of a project's default branch database, with one table written. */
async function writtenUri(projectId: string): Promise<string> {
  const branches = (await api("GET", `/projects/${projectId}/branches`)).body["branches"] as Array<{ id: string; default: boolean }>;
  const branchId = branches.find((b) => b.default)?.id ?? "";
  const [db] = (await api("GET", `/projects/${projectId}/branches/${branchId}/databases`)).body["databases"] as Array<{ name: string; owner_name: string }>;
  const res = await api("GET", `/projects/${projectId}/connection_uri?branch_id=${branchId}&role_name=${db?.owner_name ?? ""}&database_name=${db?.name ?? ""}`);
  expect(res.status).toBe(200);
  const uri = String(res.body["uri"]);
  await query(uri, "CREATE TABLE t (v int)");
  return uri;
}

/** Whether a superuser-free connection with this URL still reaches its database. */
async function connects(url: string): Promise<boolean> {
  return query(url, "SELECT 1").then(
    () => true,
    () => false,
  );
}

describe("reset and purge drop the real databases behind them", () => {
  it("reset drops the claimable databases and the branch databases of the old state", async () => {
    const created = await call(`${emu.claimApiHost}/api/v1/database`, "POST", { ref: "reset-test" });
    expect(created.status).toBe(201);
    const claimable = String(created.body["connection_string"]);
    const branch = await writtenUri(emu.projectId);
    expect([await connects(claimable), await connects(branch)]).toEqual([true, true]);

    await emu.state.reset();

    expect((await call(`${emu.claimApiHost}/api/v1/database/${String(created.body["id"])}`, "GET")).status).toBe(400);
    expect([await connects(claimable), await connects(branch)]).toEqual([false, false]);
  });

  it("POST /__emulator/reset answers once the claimable databases are dropped", async () => {
    const created = await call(`${emu.claimApiHost}/api/v1/database`, "POST", { ref: "reset-route-test" });
    const res = await fetch(`${emu.url}/__emulator/reset`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(200);
    expect(await connects(String(created.body["connection_string"]))).toBe(false);
  });

  it("a project purged after its recovery window loses its branch databases; a deleted one keeps them", async () => {
    const project = await api("POST", "/projects", { project: { name: "purged" } });
    expect(project.status).toBe(201);
    const projectId = String((project.body["project"] as Record<string, unknown>)["id"]);
    await emu.settle();
    const uri = await writtenUri(projectId);
    expect((await api("DELETE", `/projects/${projectId}`)).status).toBe(200);
    expect(await connects(uri)).toBe(true);

    emu.clock.advance(7 * 24 * 3_600_000);
    await emu.settle();

    expect((await api("GET", "/projects?recoverable=true")).body["projects"]).toEqual([]);
    expect(await connects(uri)).toBe(false);
  });
});
