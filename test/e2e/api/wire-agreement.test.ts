/**
 * The client and the emulator agree on the wire: every record the emulator sends
 * over real HTTP validates with the client's schema, and so does a record that carries only the
 * fields the client requires, or `null` in every other field.
 */
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import * as client from "../../../src/api/response-schemas.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";

type Json = Record<string, unknown>;

/** One record type: the client's schema, the fields it requires, and how to get one from the emulator. */
interface RecordCase {
  name: string;
  schema: z.ZodType;
  required: string[];
  /** What the client reads for absent optional fields, where it fills a default. */
  defaults?: Json;
  fetch: () => Promise<Json>;
}

const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0, claimTransferMs: 0 };

let emu: RunningEmulator;
let branchPath: string;

async function call(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(emu.apiHost + path, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Json;
}

async function first(method: string, path: string, field: string): Promise<Json> {
  const list = (await call(method, path))[field];
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${method} ${path} returned no ${field}`);
  return list[0] as Json;
}

async function deployFunction(slug: string): Promise<Json> {
  const zip = new JSZip();
  zip.file("index.mjs", "export default () => new Response('ok');");
  const form = new FormData();
  form.append("zip", new Blob([await zip.generateAsync({ type: "uint8array" })], { type: "application/zip" }), "bundle.zip");
  form.append("runtime", "nodejs24");
  form.append("environment", JSON.stringify({ API_URL: "https://example.invalid" }));
  const res = await fetch(`${emu.apiHost}${branchPath}/functions/${slug}/deployments`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` }, body: form });
  if (res.status !== 201) throw new Error(`deploy answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { deployment: Json }).deployment;
}

async function uploadObject(bucket: string, key: string): Promise<void> {
  const grant = await call("POST", `${branchPath}/buckets/${bucket}/objects/${encodeURIComponent(key)}/presign`, { operation: "upload", content_type: "text/plain" });
  const res = await fetch(String(grant.url), { method: String(grant.method), headers: { "content-type": "text/plain" }, body: "hello" });
  if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
}

const p = (): string => `/projects/${emu.projectId}`;

const CASES: RecordCase[] = [
  { name: "project", schema: client.ProjectSchema, required: ["id", "name", "region_id", "pg_version"], fetch: async () => (await call("GET", p())).project as Json },
  {
    name: "branch",
    schema: client.BranchSchema,
    required: ["id", "name", "default", "protected", "created_at"],
    fetch: async () => (await call("GET", branchPath)).branch as Json,
  },
  {
    name: "endpoint",
    schema: client.EndpointSchema,
    required: ["id", "branch_id", "type", "autoscaling_limit_min_cu", "autoscaling_limit_max_cu", "suspend_timeout_seconds"],
    fetch: () => first("GET", `${branchPath}/endpoints`, "endpoints"),
  },
  { name: "operation", schema: client.OperationSchema, required: ["id", "action", "status"], fetch: () => first("GET", `${p()}/operations`, "operations") },
  { name: "database", schema: client.DatabaseSchema, required: ["name", "owner_name"], fetch: () => first("GET", `${branchPath}/databases`, "databases") },
  { name: "role", schema: client.RoleSchema, required: ["name"], fetch: () => first("GET", `${branchPath}/roles`, "roles") },
  { name: "auth credentials", schema: client.AuthCredentialsSchema, required: [], fetch: () => call("POST", `${branchPath}/auth`, { auth_provider: "better_auth" }) },
  { name: "auth integration", schema: client.AuthIntegrationSchema, required: ["auth_provider"], fetch: () => call("GET", `${branchPath}/auth`) },
  {
    name: "data API",
    schema: client.DataApiSchema,
    required: [],
    defaults: { settings: null },
    fetch: async () => {
      await call("POST", `${branchPath}/data-api/neondb`, {});
      return call("GET", `${branchPath}/data-api/neondb`);
    },
  },
  {
    name: "bucket",
    schema: client.BucketSchema,
    required: ["name", "access_level"],
    fetch: async () => (await call("POST", `${branchPath}/buckets`, { name: "media", access_level: "private" })).bucket as Json,
  },
  {
    name: "bucket object page",
    schema: client.BucketObjectPageSchema,
    required: ["objects"],
    defaults: { folders: [], is_truncated: false },
    fetch: async () => {
      await uploadObject("media", "docs/readme.txt");
      return call("GET", `${branchPath}/buckets/media/objects`);
    },
  },
  { name: "deployment", schema: client.DeploymentSchema, required: ["id", "status", "runtime"], fetch: () => deployFunction("hello") },
  {
    name: "function",
    schema: client.FunctionSchema,
    required: ["slug", "name"],
    defaults: { invocation_url: "" },
    fetch: async () => {
      await emu.settle();
      return (await call("GET", `${branchPath}/functions/hello`)).function as Json;
    },
  },
  {
    name: "schedule trigger",
    schema: client.TriggerSchema,
    required: ["trigger_id", "type", "function_slug", "name", "enabled"],
    defaults: { function_path: "/", inherited: false },
    fetch: async () =>
      (await call("POST", `${branchPath}/triggers`, { type: "schedule", function_slug: "hello", name: "hourly", schedule: { cron: "0 * * * *" } })).trigger as Json,
  },
  {
    name: "storage trigger",
    schema: client.TriggerSchema,
    required: ["trigger_id", "type", "function_slug", "name", "enabled"],
    defaults: { function_path: "/", inherited: false },
    fetch: async () =>
      (
        await call("POST", `${branchPath}/triggers`, {
          type: "storage_object_created",
          function_slug: "hello",
          name: "uploads",
          storage_object_created: { bucket_name: "media", prefix: "in/" },
        })
      ).trigger as Json,
  },
  {
    name: "custom domain",
    schema: client.CustomDomainSchema,
    required: ["domain", "entity_type", "entity_id"],
    defaults: { cname_target: "" },
    fetch: () => call("POST", `${branchPath}/custom-domains`, { domain: "api.example.com", entity_type: "function", entity_id: "hello" }),
  },
  {
    name: "created credential",
    schema: client.CredentialSecretSchema,
    required: ["token_id", "scopes", "created_at", "api_token", "s3_secret_access_key"],
    fetch: () => call("POST", `${branchPath}/credentials`, { scopes: ["storage:read"], principal_type: "user", name: "reader" }),
  },
  { name: "credential", schema: client.CredentialSchema, required: ["token_id", "scopes", "created_at"], fetch: () => first("GET", `${branchPath}/credentials`, "credentials") },
  { name: "AI gateway", schema: client.AiGatewaySchema, required: ["enabled", "base_url"], fetch: () => call("GET", `${branchPath}/ai_gateway`) },
  { name: "created API key", schema: client.ApiKeyCreatedSchema, required: ["id", "name", "key"], fetch: () => call("POST", "/api_keys", { key_name: "ci" }) },
  {
    name: "listed API key",
    schema: client.ApiKeyRecordSchema,
    required: ["id", "name"],
    fetch: async () => {
      const keys = (await fetch(`${emu.apiHost}/api_keys`, { headers: { authorization: `Bearer ${emu.apiKey}` } }).then((r) => r.json())) as Json[];
      const key = keys.find((k) => k.name === "ci");
      if (key === undefined) throw new Error("the created API key is not listed");
      return key;
    },
  },
  {
    name: "revoked API key",
    schema: client.ApiKeyRecordSchema,
    required: ["id", "name"],
    fetch: async () => {
      const created = await call("POST", "/api_keys", { key_name: "short-lived" });
      return call("DELETE", `/api_keys/${String(created.id)}`);
    },
  },
];

/** The emulator's record of each case, fetched in table order (later cases build on earlier ones). */
const sent = new Map<string, Json>();

function pick(record: Json, keys: string[]): Json {
  return Object.fromEntries(keys.map((key) => [key, record[key]]));
}

function issues(result: z.ZodSafeParseResult<unknown>): string {
  return result.success ? "" : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
}

beforeAll(async () => {
  emu = await startEmulator({ timings: INSTANT });
  branchPath = `${p()}/branches/${emu.defaultBranchId}`;
  for (const c of CASES) sent.set(c.name, await c.fetch());
});
afterAll(() => emu.close());

describe("the client's wire schemas and the emulator's responses", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("a %s the emulator sends validates with the client's schema, keeping the required fields", (_name, c) => {
    const record = sent.get(c.name) ?? {};
    const result = c.schema.safeParse(record);
    expect(issues(result)).toBe("");
    expect(result.data).toMatchObject(pick(record, c.required));
  });

  it.each(CASES.map((c) => [c.name, c] as const))("a %s with only the client's required fields validates and reads the documented defaults", (_name, c) => {
    const result = c.schema.safeParse(pick(sent.get(c.name) ?? {}, c.required));
    expect(issues(result)).toBe("");
    expect(Object.keys(result.data as Json).sort()).toEqual([...c.required, ...Object.keys(c.defaults ?? {})].sort());
    expect(result.data).toMatchObject(c.defaults ?? {});
  });

  it.each(CASES.map((c) => [c.name, c] as const))("a %s with null in every optional field reads like one without them", (_name, c) => {
    const record = sent.get(c.name) ?? {};
    const nulled = Object.fromEntries(Object.keys(record).map((key) => [key, c.required.includes(key) ? record[key] : null]));
    const result = c.schema.safeParse(nulled);
    expect(issues(result)).toBe("");
    expect(result.data).toEqual(c.schema.parse(pick(record, c.required)));
  });

  it.each(CASES.filter((c) => c.required.length > 0).map((c) => [c.name, c] as const))("a %s missing any required field is rejected", (_name, c) => {
    const minimal = pick(sent.get(c.name) ?? {}, c.required);
    const accepted = c.required.filter((key) => c.schema.safeParse({ ...minimal, [key]: undefined }).success);
    expect(accepted).toEqual([]);
  });
});
