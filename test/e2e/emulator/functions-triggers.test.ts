/**
 * Triggers fire in the emulator: schedules on its clock (every due minute once, in order, when a
 * manual clock is advanced; a big advance is bounded), storage triggers when an object is created
 * under their prefix (presigned upload or the S3 endpoint), with the platform's envelope and
 * header; disabled triggers never fire, and a schedule disabled, deleted or moved to another cron
 * stops firing; a failed delivery is retried once with the same
 * invocation id; `POST /__emulator/triggers/{id}/fire` fires one now.
 */
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { InvocationRecord } from "../../../src/emulator/functions/invocation-log.js";
import { branchPath, deployModule, invocations } from "./functions-helpers.js";
import { client, startTestEmulator, type TestClient } from "./helpers.js";

/** Records every delivery it gets (headers and body) and answers with the status the path asks for. */
const RECORDER = `
const seen = [];
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/seen") return Response.json(seen);
    const body = await request.text();
    seen.push({ path: url.pathname, header: request.headers.get("x-svc-trigger-invocation-id"), type: request.headers.get("content-type"), delivery: request.headers.get("x-svc-emulator-delivery"), body });
    const fail = url.pathname.startsWith("/fail");
    return new Response(fail ? "no" : "ok", { status: fail ? 500 : 200 });
  },
};
`;

interface Seen {
  path: string;
  header: string;
  type: string;
  delivery: string | null;
  body: string;
}

describe("triggers firing in the emulator", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  let url: string;
  const triggers = (): string => `${branchPath(emu)}/triggers`;
  const seen = async (): Promise<Seen[]> => (await fetch(`${url}seen`)).json() as Promise<Seen[]>;
  const triggerOf = async (body: Record<string, unknown>): Promise<string> => {
    const res = await api.call<{ trigger: { trigger_id: string } }>("POST", triggers(), { function_slug: "recorder", ...body });
    expect(res.status).toBe(201);
    return res.body.trigger.trigger_id;
  };
  const deliveriesOf = async (name: string): Promise<InvocationRecord[]> => (await invocations(emu, "recorder")).filter((i) => i.trigger?.name === name);

  beforeAll(async () => {
    emu = await startTestEmulator({ clock: new Date("2026-11-26T10:00:30Z") });
    api = client(emu);
    expect((await api.call("POST", `${branchPath(emu)}/buckets`, { name: "uploads" })).status).toBe(201);
    url = await deployModule(emu, "recorder", RECORDER);
  }, 60_000);
  afterAll(() => emu?.close());

  it("fires a schedule once per due minute, in order, with the platform's envelope, when the clock advances", async () => {
    const id = await triggerOf({ type: "schedule", name: "every-minute", schedule: { cron: "* * * * *" }, function_path: "/tick" });
    await fetch(`${emu.url}/__emulator/clock`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ advance_ms: 120_000 }) });
    await emu.settle();
    const ticks = (await seen()).filter((s) => s.path === "/tick");
    expect(ticks.map((t) => JSON.parse(t.body) as { data: { scheduled_at: string } }).map((b) => b.data.scheduled_at)).toEqual(["2026-11-26T10:01:00Z", "2026-11-26T10:02:00Z"]);
    for (const t of ticks) {
      const body = JSON.parse(t.body) as Record<string, unknown>;
      expect(body).toEqual({ version: 1, invocation_id: t.header, trigger: { type: "schedule", id, name: "every-minute" }, data: { scheduled_at: expect.any(String) } });
      expect([t.type, t.delivery]).toEqual(["application/json", null]);
    }
    const logged = await deliveriesOf("every-minute");
    expect(logged.map((r) => [r.source, r.method, r.path, r.status, r.trigger?.attempt, r.trigger?.data.scheduled_at])).toEqual([
      ["trigger", "POST", "/tick", 200, 1, "2026-11-26T10:01:00Z"],
      ["trigger", "POST", "/tick", 200, 1, "2026-11-26T10:02:00Z"],
    ]);
    expect((await api.call("DELETE", `${triggers()}/${id}`)).status).toBe(204);
  });

  it("never fires a disabled trigger, on the clock or by hand", async () => {
    const id = await triggerOf({ type: "schedule", name: "disabled", schedule: { cron: "* * * * *" }, function_path: "/disabled", enabled: false });
    emu.clock.advance(180_000);
    await emu.settle();
    const fire = await fetch(`${emu.url}/__emulator/triggers/${id}/fire`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(fire.status).toBe(409);
    expect((await seen()).filter((s) => s.path === "/disabled")).toEqual([]);
    expect(await deliveriesOf("disabled")).toEqual([]);
  });

  it("stops firing a schedule once it is disabled, deleted or moved to another cron, and fires the others", async () => {
    const ids = new Map<string, string>();
    for (const name of ["paused", "removed", "moved", "kept"]) ids.set(name, await triggerOf({ type: "schedule", name, schedule: { cron: "* * * * *" }, function_path: `/armed-${name}` }));
    const fired = async (name: string): Promise<number> => (await seen()).filter((s) => s.path === `/armed-${name}`).length;
    emu.clock.advance(60_000);
    await emu.settle();
    expect([await fired("paused"), await fired("removed"), await fired("moved"), await fired("kept")]).toEqual([1, 1, 1, 1]);
    expect((await api.call("PATCH", `${triggers()}/${ids.get("paused")}`, { type: "schedule", enabled: false })).status).toBe(200);
    expect((await api.call("DELETE", `${triggers()}/${ids.get("removed")}`)).status).toBe(204);
    expect((await api.call("PATCH", `${triggers()}/${ids.get("moved")}`, { type: "schedule", schedule: { cron: "0 0 1 1 *" } })).status).toBe(200);
    emu.clock.advance(180_000);
    await emu.settle();
    expect([await fired("paused"), await fired("removed"), await fired("moved"), await fired("kept")]).toEqual([1, 1, 1, 4]);
    for (const name of ["paused", "moved", "kept"]) expect((await api.call("DELETE", `${triggers()}/${ids.get(name)}`)).status).toBe(204);
  });

  it("bounds the runs a big clock advance fires and reports the skipped range", async () => {
    const id = await triggerOf({ type: "schedule", name: "flood", schedule: { cron: "* * * * *" }, function_path: "/flood" });
    emu.clock.advance(24 * 3_600_000);
    await emu.settle();
    expect((await seen()).filter((s) => s.path === "/flood")).toHaveLength(100);
    const res = await fetch(`${emu.url}/__emulator/invocations`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    const { skipped_schedule_runs: skipped } = (await res.json()) as { skipped_schedule_runs: { trigger_id: string }[] };
    expect(skipped).toEqual([expect.objectContaining({ trigger_id: id, trigger_name: "flood" })]);
    expect((await api.call("DELETE", `${triggers()}/${id}`)).status).toBe(204);
  });

  it("retries a failed delivery once with the same invocation id, and records both attempts", async () => {
    const id = await triggerOf({ type: "schedule", name: "failing", schedule: { cron: "0 0 1 1 *" }, function_path: "/fail" });
    const fire = await fetch(`${emu.url}/__emulator/triggers/${id}/fire`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } });
    const outcome = (await fire.json()) as { invocation_id: string; delivered: boolean; attempts: unknown[] };
    expect([fire.status, outcome.delivered, outcome.attempts]).toEqual([200, false, [500, 500]]);
    const tries = (await seen()).filter((s) => s.path === "/fail");
    expect(tries.map((t) => t.header)).toEqual([outcome.invocation_id, outcome.invocation_id]);
    expect((await deliveriesOf("failing")).map((r) => [r.status, r.trigger?.attempt, r.trigger?.invocation_id])).toEqual([
      [500, 1, outcome.invocation_id],
      [500, 2, outcome.invocation_id],
    ]);
  });

  it("fires a storage trigger for objects created under its prefix, by presigned upload and through the S3 endpoint", async () => {
    const id = await triggerOf({ type: "storage_object_created", name: "uploaded", storage_object_created: { bucket_name: "uploads", prefix: "in/" }, function_path: "/upload" });
    const presign = await api.call<{ url: string }>("POST", `${branchPath(emu)}/buckets/uploads/objects/${encodeURIComponent("in/a.txt")}/presign`, { operation: "upload" });
    expect((await fetch(presign.body.url, { method: "PUT", body: "a" })).status).toBe(200);
    const outside = await api.call<{ url: string }>("POST", `${branchPath(emu)}/buckets/uploads/objects/${encodeURIComponent("out/b.txt")}/presign`, { operation: "upload" });
    expect((await fetch(outside.body.url, { method: "PUT", body: "b" })).status).toBe(200);
    const cred = await api.call<{ token_id: string; s3_secret_access_key: string }>("POST", `${branchPath(emu)}/credentials`, { scopes: ["storage:write"], principal_type: "user" });
    const s3 = new S3Client({ endpoint: `${emu.url}/s3/${emu.defaultBranchId}`, forcePathStyle: true, region: "aws-us-east-2", credentials: { accessKeyId: cred.body.token_id, secretAccessKey: cred.body.s3_secret_access_key } });
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "in/c d.txt", Body: "c" }));
    s3.destroy();
    await emu.settle();
    const uploads = (await seen()).filter((s) => s.path === "/upload").map((s) => JSON.parse(s.body) as { trigger: unknown; data: unknown });
    expect(uploads).toEqual([
      { version: 1, invocation_id: expect.any(String), trigger: { type: "storage_object_created", id, name: "uploaded" }, data: { bucket_name: "uploads", object_key: "in/a.txt" } },
      { version: 1, invocation_id: expect.any(String), trigger: { type: "storage_object_created", id, name: "uploaded" }, data: { bucket_name: "uploads", object_key: "in/c d.txt" } },
    ]);
  });

  it("fires a storage trigger by hand for a given object key, and refuses one without", async () => {
    const id = (await api.call<{ triggers: { trigger_id: string; name: string }[] }>("GET", triggers())).body.triggers.find((t) => t.name === "uploaded")?.trigger_id;
    const fire = (body?: unknown) => fetch(`${emu.url}/__emulator/triggers/${id}/fire`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    expect((await fire()).status).toBe(400);
    const res = await fire({ object_key: "in/manual.txt" });
    expect(await res.json()).toMatchObject({ delivered: true, attempts: [200] });
    expect((await seen()).filter((s) => s.path === "/upload").at(-1)?.body).toContain('"object_key":"in/manual.txt"');
    expect((await fetch(`${emu.url}/__emulator/triggers/trg_missing/fire`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` } })).status).toBe(404);
    expect((await fetch(`${emu.url}/__emulator/invocations`)).status).toBe(401);
  });
});
