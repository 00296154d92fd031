import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator } from "./helpers.js";

const dirs: string[] = [];
const running: RunningEmulator[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-emu-data-"));
  dirs.push(dir);
  return dir;
}

async function start(dir: string, options: Parameters<typeof startTestEmulator>[0] = {}): Promise<RunningEmulator> {
  const emu = await startTestEmulator({ dataDir: dir, ...options });
  running.push(emu);
  return emu;
}

afterEach(async () => {
  for (const emu of running.splice(0)) await emu.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("persistence with dataDir", () => {
  it("restores every acknowledged change after a restart: branches, objects, keys, deletions, clock and the bootstrap key", async () => {
    const dir = dataDir();
    const first = await start(dir, { clock: new Date("2026-06-01T00:00:00Z") });
    const api = client(first);
    const p = first.projectId;
    const b = first.defaultBranchId;
    const branch = await api.call<{ branch: { id: string } }>("POST", `/projects/${p}/branches`, { branch: { name: "persisted" } });
    expect(branch.status).toBe(201);
    expect((await api.call("POST", `/projects/${p}/branches/${b}/buckets`, { name: "files" })).status).toBe(201);
    const presign = await api.call<{ url: string }>("POST", `/projects/${p}/branches/${b}/buckets/files/objects/${encodeURIComponent("a/b.txt")}/presign`, { operation: "upload" });
    expect((await fetch(presign.body.url, { method: "PUT", body: "durable bytes" })).status).toBe(200);
    const key = await api.call<{ id: number; key: string }>("POST", "/api_keys", { key_name: "ci" });
    const created = await api.call<{ project: { id: string } }>("POST", "/projects", { project: { name: "to-delete" } });
    await first.settle();
    expect((await api.call("DELETE", `/projects/${created.body.project.id}`)).status).toBe(200);
    const clock = await fetch(`${first.url}/__emulator/clock`, { method: "POST", headers: { authorization: `Bearer ${first.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ advance_ms: 3_600_000 }) });
    expect(clock.status).toBe(200);
    await first.close();

    const second = await start(dir);
    expect([second.apiKey, second.projectId, second.defaultBranchId]).toEqual([first.apiKey, p, b]);
    const again = client(second);
    expect((await again.call("GET", `/projects/${p}/branches/${branch.body.branch.id}`)).status).toBe(200);
    const download = await fetch(`${second.apiHost}/projects/${p}/branches/${b}/buckets/files/objects/${encodeURIComponent("a/b.txt")}/download`, { headers: { authorization: `Bearer ${second.apiKey}` } });
    expect(await download.text()).toBe("durable bytes");
    expect((await client(second, key.body.key).call("GET", "/projects")).status).toBe(200);
    const recoverable = await again.call<{ projects: { id: string }[] }>("GET", "/projects?recoverable=true");
    expect(recoverable.body.projects.map((x) => x.id)).toEqual([created.body.project.id]);
    expect(second.clock.now()).toBe(Date.parse("2026-06-01T01:00:00Z"));
  });

  it("keeps API key tokens off disk except the bootstrap key in bootstrap.env (mode 0600)", async () => {
    const dir = dataDir();
    const emu = await start(dir);
    const key = await client(emu).call<{ key: string }>("POST", "/api_keys", { key_name: "secret-one" });
    expect(key.status).toBe(200);
    const state = readFileSync(join(dir, "state.json"), "utf8");
    expect(state).not.toContain(key.body.key);
    expect(state).not.toContain(emu.apiKey);
    expect(readFileSync(join(dir, "bootstrap.env"), "utf8")).toContain(`SVC_API_KEY=${emu.apiKey}`);
    expect(statSync(join(dir, "bootstrap.env")).mode & 0o777).toBe(0o600);
  });

  it("resumes in-flight operations from their stored deadlines after a restart", async () => {
    const dir = dataDir();
    const first = await start(dir, { timings: { opSchedulingMs: 0, opRunMs: 60_000 }, clock: new Date("2026-06-01T00:00:00Z") });
    const created = await client(first).call<{ branch: { id: string; current_state: string } }>("POST", `/projects/${first.projectId}/branches`, { branch: { name: "slow" }, endpoints: [{ type: "read_write" }] });
    expect(created.body.branch.current_state).toBe("init");
    await first.close();
    const second = await start(dir, { timings: { opSchedulingMs: 0, opRunMs: 60_000 }, clock: "manual" });
    second.clock.advance(120_000);
    const branch = await client(second).call<{ branch: { current_state: string } }>("GET", `/projects/${second.projectId}/branches/${created.body.branch.id}`);
    expect(branch.body.branch.current_state).toBe("ready");
  });

  it("refuses a second emulator on the same data dir", async () => {
    const dir = dataDir();
    await start(dir);
    await expect(startTestEmulator({ dataDir: dir })).rejects.toThrow(/in use by another emulator/);
  });

  it.each([
    ["a flipped byte", (text: string) => text.replace(/"name":"main"/, '"name":"mein"')],
    ["a truncated file", (text: string) => text.slice(0, text.length / 2)],
    ["another format", (text: string) => text.replace('"format":"svc-emulator-state"', '"format":"other"')],
  ])("reports %s in state.json as corruption and leaves the file untouched", async (_case, damage) => {
    const dir = dataDir();
    const emu = await start(dir);
    await emu.close();
    running.splice(0);
    const path = join(dir, "state.json");
    const damaged = damage(readFileSync(path, "utf8"));
    writeFileSync(path, damaged);
    await expect(startTestEmulator({ dataDir: dir })).rejects.toThrow(/is corrupt: state\.json .*the emulator never discards data/);
    expect(readFileSync(path, "utf8")).toBe(damaged);
    expect(existsSync(join(dir, "LOCK"))).toBe(false);
  });

  it("reports a missing blob as corruption", async () => {
    const dir = dataDir();
    const emu = await start(dir);
    const api = client(emu);
    await api.call("POST", `/projects/${emu.projectId}/branches/${emu.defaultBranchId}/buckets`, { name: "files" });
    const presign = await api.call<{ url: string }>("POST", `/projects/${emu.projectId}/branches/${emu.defaultBranchId}/buckets/files/objects/x/presign`, { operation: "upload" });
    await fetch(presign.body.url, { method: "PUT", body: "x" });
    await emu.close();
    running.splice(0);
    rmSync(join(dir, "blobs"), { recursive: true });
    await expect(startTestEmulator({ dataDir: dir })).rejects.toThrow(/blob [0-9a-f]{64} referenced by state\.json is missing/);
  });

  it("removes a leftover state.json.tmp (an unacknowledged write) and starts from state.json", async () => {
    const dir = dataDir();
    const emu = await start(dir);
    const created = await client(emu).call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "kept" } });
    await emu.close();
    running.splice(0);
    writeFileSync(join(dir, "state.json.tmp"), '{"format":"svc-emu');
    const again = await start(dir);
    expect(existsSync(join(dir, "state.json.tmp"))).toBe(false);
    expect((await client(again).call("GET", `/projects/${again.projectId}/branches/${created.body.branch.id}`)).status).toBe(200);
  });

  it("rewrites state.json with the seed on reset", async () => {
    const dir = dataDir();
    const emu = await start(dir);
    const created = await client(emu).call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "gone-after-reset" } });
    const reset = await fetch(`${emu.url}/__emulator/reset`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(reset.status).toBe(200);
    await emu.close();
    running.splice(0);
    const again = await start(dir);
    expect((await client(again).call("GET", `/projects/${again.projectId}/branches/${created.body.branch.id}`)).status).toBe(404);
  });
});
