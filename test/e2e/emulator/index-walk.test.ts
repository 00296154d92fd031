import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { M2_ROUTES, SEED_ENDPOINT_INDEX, type RunningEmulator } from "../../../src/emulator/index.js";
import { client, deploy, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED, zipOf } from "./helpers.js";

/** Real values for every path parameter, so emulated routes answer per spec rather than 404. */
async function paramValues(emu: RunningEmulator): Promise<Record<string, string>> {
  const api = client(emu, KEYS.alice);
  const base = "/projects/alice-app-100001/branches/br-alice-main-100001";
  const triggers = await api.call<{ triggers: { trigger_id: string }[] }>("GET", `${base}/triggers`);
  const credential = await api.call<{ token_id: string }>("POST", `${base}/credentials`, { scopes: ["storage:read"], principal_type: "user" });
  await api.call("POST", `${base}/custom-domains`, { domain: "walk.example.com", entity_type: "function", entity_id: "hello" });
  const key = await api.call<{ id: number }>("POST", "/api_keys", { key_name: "walk" });
  await api.call("POST", `${base}/auth`, { auth_provider: "better_auth" });
  await api.call("POST", `${base}/auth/oauth_providers`, { id: "google" });
  const user = await api.call<{ id: string }>("POST", `${base}/auth/users`, { email: "walk@example.com" });
  const ops = await api.call<{ operations: { id: string }[] }>("GET", "/projects/alice-app-100001/operations");
  const snapshot = await api.call<{ snapshot: { id: string } }>("POST", `${base}/snapshot?name=walk`);
  return {
    project_id: "alice-app-100001",
    branch_id: "br-alice-main-100001",
    endpoint_id: "ep-alice-main-100001",
    database_name: "neondb",
    role_name: "neondb_owner",
    slug: "hello",
    trigger_id: triggers.body.triggers[0]?.trigger_id ?? "x",
    bucket_name: "uploads",
    object_key: "a.txt",
    token_id: credential.body.token_id,
    domain: "walk.example.com",
    key_id: String(key.body.id),
    org_id: "org-acme",
    source_org_id: "org-acme",
    auth_user_id: user.body.id,
    oauth_provider_id: "google",
    operation_id: ops.body.operations[0]?.id ?? "x",
    auth_provider: "better_auth",
    region_id: "aws-us-east-2",
    field_name: "source",
    jwks_id: "jwks-1",
    request_id: "req-1",
    vpc_endpoint_id: "vpce-1",
    snapshot_id: snapshot.body.snapshot.id,
    member_id: "00000000-0000-4000-8000-000000000000",
    permission_id: "perm-1",
  };
}

/** The index routes that answer 501, in index order. */
const NOT_EMULATED = [
  "POST /projects/{project_id}/jwks",
  "GET /projects/{project_id}/jwks",
  "DELETE /projects/{project_id}/jwks/{jwks_id}",
  "POST /projects/{project_id}/transfer_requests",
  "PUT /projects/{project_id}/transfer_requests/{request_id}",
  "GET /projects/{project_id}/vpc_endpoints",
  "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
  "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
  "GET /projects/{project_id}/available_preload_libraries",
  "POST /projects/{project_id}/branch_anonymized",
  "POST /projects/{project_id}/branches/{branch_id}/anonymize",
  "GET /projects/{project_id}/branches/{branch_id}/anonymized_status",
  "GET /projects/{project_id}/branches/{branch_id}/masking_rules",
  "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules",
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/config",
  "POST /projects/{project_id}/branches/{branch_id}/auth/email_provider/test",
  "POST /projects/{project_id}/branches/{branch_id}/auth/send_test_email",
  "GET /consumption_history/v2/branches",
  "GET /consumption_history/v2/projects",
  "GET /consumption_history/projects",
  "GET /organizations/{org_id}",
  "GET /organizations/{org_id}/members",
  "GET /organizations/{org_id}/members/{member_id}",
  "PATCH /organizations/{org_id}/members/{member_id}",
  "DELETE /organizations/{org_id}/members/{member_id}",
  "GET /organizations/{org_id}/invitations",
  "POST /organizations/{org_id}/invitations",
  "GET /organizations/{org_id}/billing/spending_limit",
  "PUT /organizations/{org_id}/billing/spending_limit",
  "DELETE /organizations/{org_id}/billing/spending_limit",
  "GET /organizations/{org_id}/vpc/vpc_endpoints",
  "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints",
  "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  "POST /organizations/{source_org_id}/projects/transfer",
  "POST /users/me/projects/transfer",
];

describe("the seed's endpoint index", () => {
  let emu: RunningEmulator;
  let values: Record<string, string>;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED });
    values = await paramValues(emu);
  });
  afterAll(() => emu.close());

  const routes = [...SEED_ENDPOINT_INDEX, ...M2_ROUTES];
  // Deletes last, so they do not remove what other routes read.
  const ordered = [...routes.filter((r) => !r.startsWith("DELETE")), ...routes.filter((r) => r.startsWith("DELETE"))];

  it("lists the 144 routes of the seed's index", () => {
    expect(SEED_ENDPOINT_INDEX).toHaveLength(144);
  });

  it("answers 501 for exactly the routes the emulator does not emulate", async () => {
    const answers501: string[] = [];
    for (const route of routes.filter((r) => !r.startsWith("DELETE"))) {
      const [method = "GET", template = "/"] = route.split(" ");
      const path = template.replace(/\{([a-z_]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? "x"));
      if (method === "POST" && template.endsWith("/deployments")) continue;
      const res = await fetch(emu.apiHost + path, { method, headers: { authorization: `Bearer ${KEYS.alice}`, ...(method === "GET" ? {} : { "content-type": "application/json" }) }, ...(method === "GET" ? {} : { body: "{}" }) });
      await res.text();
      if (res.status === 501) answers501.push(route);
    }
    expect(answers501).toEqual(NOT_EMULATED.filter((r) => !r.startsWith("DELETE")));
  });

  it.each(ordered)("%s is emulated or answers 501 naming the route", async (route) => {
    const [method = "GET", template = "/"] = route.split(" ");
    const path = template.replace(/\{([a-z_]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? "x"));
    let status: number;
    let contentType: string | null;
    let body: { code?: string; message?: string } | null;
    if (method === "POST" && template.endsWith("/deployments")) {
      const res = await deploy(emu, path, { zip: await zipOf({ "index.mjs": "export default 1" }) }, KEYS.alice);
      [status, contentType, body] = [res.status, res.headers.get("content-type"), res.body];
    } else {
      const res = await fetch(emu.apiHost + path, {
        method,
        headers: { authorization: `Bearer ${KEYS.alice}`, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
        ...(method === "GET" ? {} : { body: "{}" }),
      });
      const text = await res.text();
      const type = res.headers.get("content-type");
      [status, contentType, body] = [res.status, type, text === "" || !(type ?? "").startsWith("application/json") ? null : (JSON.parse(text) as { code?: string })];
    }
    expect(status).not.toBe(405);
    expect(body?.code).not.toBe("route_not_found");
    if (status === 501) {
      expect(body).toMatchObject({ code: "not_implemented", message: `${method} ${template} is not emulated by the local emulator` });
    } else {
      expect(status).toBeLessThan(500);
    }
    // Object downloads answer raw bytes; every other answer is JSON.
    if (status !== 204 && !(status === 200 && template.endsWith("/download"))) expect(contentType).toMatch(/^application\/json/);
  });
});
