import { describe, expect, it } from "vitest";
import { isTriggerDeliveryError, parseTriggerDelivery, type TriggerDeliveryErrorCode } from "../../../src/functions/index.js";
import { scheduledAtMinute, triggerInvocationRequest } from "../../../src/rules/trigger-invocation.js";

function post(body: string, headers: Record<string, string> = {}): Request {
  return new Request("http://fn.test/jobs", { method: "POST", body, headers });
}

const schedule = triggerInvocationRequest({
  functionUrl: "http://fn.test/",
  functionPath: "/jobs",
  invocationId: "inv-1",
  trigger: { type: "schedule", id: "trigger-0b5e", name: "hourly" },
  data: { scheduled_at: scheduledAtMinute(new Date("2026-11-26T10:00:42.123Z")) },
});

describe("parseTriggerDelivery", () => {
  it("reads the envelope the emulator and svc dev send, in camelCase", async () => {
    expect(schedule.url).toBe("http://fn.test/jobs");
    const delivery = await parseTriggerDelivery(new Request(schedule.url, { method: "POST", headers: schedule.headers, body: schedule.body }));
    expect(delivery).toEqual({ type: "schedule", version: 1, invocationId: "inv-1", trigger: { id: "trigger-0b5e", name: "hourly" }, data: { scheduledAt: "2026-11-26T10:00:00Z" } });
  });

  it("reads a storage delivery and ignores unknown fields", async () => {
    const body = { version: 1, invocation_id: "i2", trigger: { type: "storage_object_created", id: "trigger-1", name: "uploads", extra: true }, data: { bucket_name: "media", object_key: "in/a b.png" }, more: 1 };
    const delivery = await parseTriggerDelivery(post(JSON.stringify(body), { "x-svc-trigger-invocation-id": "i2" }));
    expect(delivery.type === "storage_object_created" && delivery.data).toEqual({ bucketName: "media", objectKey: "in/a b.png" });
  });

  const valid = JSON.parse(schedule.body) as Record<string, unknown>;
  const cases: [string, Request, TriggerDeliveryErrorCode, string][] = [
    ["no header", post(schedule.body), "TRIGGER_HEADER_MISSING", "x-svc-trigger-invocation-id header is missing"],
    ["a blank header", post(schedule.body, { "x-svc-trigger-invocation-id": " " }), "TRIGGER_HEADER_MISSING", "header is missing"],
    ["a header for another invocation", post(schedule.body, { "x-svc-trigger-invocation-id": "inv-2" }), "TRIGGER_ID_MISMATCH", "differ"],
    ["a body that is not JSON", post("{", { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "not JSON"],
    ["invalid UTF-8", new Request("http://x", { method: "POST", body: new Uint8Array([0x7b, 0xff]), headers: { "x-svc-trigger-invocation-id": "inv-1" } }), "TRIGGER_BODY_INVALID", "not JSON"],
    ["an array", post("[]", { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "must be a JSON object"],
    ["version 2", post(JSON.stringify({ ...valid, version: 2 }), { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "version must be 1 (got 2)"],
    ["no trigger", post(JSON.stringify({ ...valid, trigger: undefined }), { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "trigger must be an object"],
    ["an unknown type", post(JSON.stringify({ ...valid, trigger: { type: "queue", id: "t", name: "n" } }), { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", 'got "queue"'],
    ["a bad scheduled_at", post(JSON.stringify({ ...valid, data: { scheduled_at: "yesterday" } }), { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "data.scheduled_at"],
    ["a storage delivery without the key", post(JSON.stringify({ ...valid, trigger: { type: "storage_object_created", id: "t", name: "n" }, data: { bucket_name: "b" } }), { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "data.object_key must be a non-empty string"],
    ["an inherited __proto__ id", post('{"version":1,"__proto__":{"invocation_id":"inv-1"}}', { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "invocation_id must be"],
    ["a huge body", post(`{"pad":"${"a".repeat(70_000)}"}`, { "x-svc-trigger-invocation-id": "inv-1" }), "TRIGGER_BODY_INVALID", "larger than 65536 bytes"],
  ];

  it.each(cases)("refuses %s with a typed error", async (_name, request, code, message) => {
    const err = await parseTriggerDelivery(request).catch((e: unknown) => e);
    expect(isTriggerDeliveryError(err, code)).toBe(true);
    expect((err as Error).message).toContain(message);
    expect((err as { status: number }).status).toBe(400);
  });
});
