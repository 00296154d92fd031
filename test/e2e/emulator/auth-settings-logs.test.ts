/**
 * The auth settings and log reads the platform's own clients (its CLI and SDK) call, over real
 * HTTP: shapes of the platform's published types, defaults, partial updates, refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AllowLocalhostSchema,
  AuthWebhookSchema,
  EmailAndPasswordSchema,
  LogFieldValuesResponseSchema,
  LogFieldsResponseSchema,
  LogQueryResponseSchema,
  MagicLinkPluginSchema,
  OrganizationPluginSchema,
  PhoneNumberPluginSchema,
} from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, type TestClient } from "./helpers.js";

const P = "alice-app-100001";
const MAIN = `/projects/${P}/branches/br-alice-main-100001`;
const AUTH = `${MAIN}/auth`;

let emu: RunningEmulator;
let api: TestClient;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
  api = client(emu, KEYS.alice);
});
afterAll(() => emu.close());

describe("auth settings before auth is enabled", () => {
  it.each([
    ["GET", "email_and_password", undefined],
    ["PATCH", "allow_localhost", { allow_localhost: false }],
    ["GET", "plugins", undefined],
    ["PUT", "webhooks", { enabled: false }],
  ])("%s …/auth/%s answers 404 saying how to enable auth", async (method, path, body) => {
    const res = await api.call<{ message: string }>(method, `${AUTH}/${path}`, body);
    expect([res.status, res.body.message]).toEqual([404, expect.stringContaining("enable it with POST")]);
  });
});

describe("auth settings", () => {
  let userId: string;
  beforeAll(async () => {
    expect((await api.call("POST", AUTH, { auth_provider: "better_auth" })).status).toBe(201);
    userId = (await api.call<{ id: string }>("POST", `${AUTH}/users`, { email: "ada@example.com" })).body.id;
  });

  it("email and password: defaults, then a PATCH changes only the fields it gives", async () => {
    const before = EmailAndPasswordSchema.parse((await api.call("GET", `${AUTH}/email_and_password`)).body);
    expect(before).toMatchObject({ enabled: true, disable_sign_up: false, require_email_verification: false });
    const patched = await api.call("PATCH", `${AUTH}/email_and_password`, { require_email_verification: true, email_verification_method: "link" });
    expect(patched.status).toBe(200);
    expect(EmailAndPasswordSchema.parse(patched.body)).toEqual({ ...before, require_email_verification: true, email_verification_method: "link" });
    expect((await api.call("GET", `${AUTH}/email_and_password`)).body).toEqual(patched.body);
    expect((await api.call("PATCH", `${AUTH}/email_and_password`, { email_verification_method: "sms" })).status).toBe(400);
  });

  it("allow_localhost: read, disable, read back; the body is required", async () => {
    expect(AllowLocalhostSchema.parse((await api.call("GET", `${AUTH}/allow_localhost`)).body)).toEqual({ allow_localhost: true });
    expect((await api.call("PATCH", `${AUTH}/allow_localhost`, { allow_localhost: false })).body).toEqual({ allow_localhost: false });
    expect((await api.call("GET", `${AUTH}/allow_localhost`)).body).toEqual({ allow_localhost: false });
    expect((await api.call("PATCH", `${AUTH}/allow_localhost`, {})).status).toBe(400);
  });

  it("webhooks: off by default, replaced whole by PUT, and an enabled one needs its URL", async () => {
    expect(AuthWebhookSchema.parse((await api.call("GET", `${AUTH}/webhooks`)).body)).toEqual({ enabled: false });
    const webhook = { enabled: true, webhook_url: "https://hooks.example.com/auth", enabled_events: ["user.created", "send.otp"], timeout_seconds: 10 };
    expect((await api.call("PUT", `${AUTH}/webhooks`, webhook)).body).toEqual(webhook);
    expect((await api.call("GET", `${AUTH}/webhooks`)).body).toEqual(webhook);
    const noUrl = await api.call<{ message: string }>("PUT", `${AUTH}/webhooks`, { enabled: true });
    expect([noUrl.status, noUrl.body.message]).toEqual([400, expect.stringContaining("webhook_url")]);
    expect((await api.call("PUT", `${AUTH}/webhooks`, { ...webhook, enabled_events: ["user.deleted"] })).status).toBe(400);
    expect((await api.call("GET", `${AUTH}/webhooks`)).body).toEqual(webhook);
  });

  it("plugins: one read of every setting, and the organization, magic-link and phone-number updates", async () => {
    const org = await api.call("PATCH", `${AUTH}/plugins/organization`, { enabled: true, creator_role: "admin" });
    expect(OrganizationPluginSchema.parse(org.body)).toMatchObject({ enabled: true, creator_role: "admin" });
    expect(MagicLinkPluginSchema.parse((await api.call("PATCH", `${AUTH}/plugins/magic-link`, { expires_in: 600 })).body).expires_in).toBe(600);
    expect(PhoneNumberPluginSchema.parse((await api.call("PATCH", `${AUTH}/plugins/phone-number`, { enabled: true })).body).enabled).toBe(true);
    expect((await api.call("GET", `${AUTH}/plugins/phone-number`)).body).toMatchObject({ enabled: true });
    const all = await api.call<Record<string, unknown>>("GET", `${AUTH}/plugins`);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(["allow_localhost", "email_and_password", "email_provider", "magic_link", "oauth_providers", "organization", "phone_number"]);
    expect(all.body).toMatchObject({ organization: org.body, allow_localhost: false, oauth_providers: [] });
    expect((await api.call("PATCH", `${AUTH}/plugins/organization`, { organization_limit: 0 })).status).toBe(400);
  });

  it("user roles: PUT replaces them and answers the user's id; an unknown user is 404", async () => {
    const set = await api.call("PUT", `${AUTH}/users/${userId}/role`, { roles: ["admin"] });
    expect([set.status, set.body]).toEqual([200, { id: userId }]);
    expect((await api.call("PUT", `${AUTH}/users/00000000-0000-4000-8000-000000000000/role`, { roles: ["admin"] })).status).toBe(404);
    expect((await api.call("PUT", `${AUTH}/users/${userId}/role`, { roles: [] })).status).toBe(400);
  });
});

describe("logs", () => {
  it("a query answers no records, honestly, in the platform's shape", async () => {
    const res = await api.call("POST", `${MAIN}/logs/query`, { since: "1h", source: "function", minimum_severity: "error" });
    expect([res.status, LogQueryResponseSchema.parse(res.body)]).toEqual([200, { logs: [], is_truncated: false }]);
    expect((await api.call("POST", `${MAIN}/logs/query`)).body).toEqual({ logs: [], is_truncated: false });
  });

  it("the fields are a list of names, and each has no values", async () => {
    const fields = LogFieldsResponseSchema.parse((await api.call("GET", `${MAIN}/logs/fields`)).body).fields;
    expect(fields).toEqual(["source", "service_name", "scope_name", "severity_text"]);
    for (const field of fields) {
      const values = await api.call("GET", `${MAIN}/logs/fields/${field}/values?since=6h`);
      expect([values.status, LogFieldValuesResponseSchema.parse(values.body)]).toEqual([200, { values: [], is_truncated: false }]);
    }
  });

  it.each([
    ["since with start_time", "POST", "logs/query", { since: "1h", start_time: "2026-01-01T00:00:00Z" }, "conflicting_time_range"],
    ["an end before the start", "POST", "logs/query", { start_time: "2026-01-02T00:00:00Z", end_time: "2026-01-01T00:00:00Z" }, "invalid_time_range"],
    ["a window over seven days", "POST", "logs/query", { since: "8d" }, "time_range_too_large"],
    ["logql with a structured filter", "POST", "logs/query", { logql: '{source="function"}', source: "function" }, "conflicting_filters"],
    ["a cursor it never issued", "POST", "logs/query", { cursor: "abc" }, "invalid_cursor"],
    ["values of an unknown field", "GET", "logs/fields/level/values", undefined, "unknown_field"],
  ])("refuses %s with 400 and the platform's reason", async (_label, method, path, body, reason) => {
    const res = await api.call<{ reason: string }>(method, `${MAIN}/${path}`, body);
    expect([res.status, res.body.reason]).toEqual([400, reason]);
  });

  it("answers 404 for a branch the key cannot see", async () => {
    expect((await client(emu, KEYS.bob).call("POST", `${MAIN}/logs/query`, {})).status).toBe(404);
  });
});
