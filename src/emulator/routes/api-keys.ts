/** API keys, personal and organization; tokens are returned once and stored hashed. */
import { Hono, type Context } from "hono";
import { ApiKeyCreateRequestSchema, OrgApiKeyCreateRequestSchema } from "../../api/wire/index.js";
import { createApiKey, listApiKeys, orgKeyOwner, personalKeyOwner, revokeApiKey, type KeyOwner } from "../engine/api-keys.js";
import { isoTime } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest } from "../http/errors.js";
import { checkId } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { ApiKeyRec } from "../store/records.js";

/** Routes of the API key group. */
export function apiKeyRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();

  const listItem = (k: ApiKeyRec) => {
    const creator = rt.world.users.get(k.createdBy);
    return {
      id: k.id,
      name: k.name,
      created_at: isoTime(k.createdAt),
      created_by: { id: k.createdBy, name: creator?.name ?? "", image: "" },
      ...(k.lastUsedAt !== undefined ? { last_used_at: isoTime(k.lastUsedAt) } : {}),
      last_used_from_addr: k.lastUsedFrom ?? "",
      ...(k.projectId !== undefined ? { project_id: k.projectId } : {}),
    };
  };
  const revokeView = (k: ApiKeyRec) => ({
    id: k.id,
    name: k.name,
    created_at: isoTime(k.createdAt),
    created_by: k.createdBy,
    ...(k.lastUsedAt !== undefined ? { last_used_at: isoTime(k.lastUsedAt) } : {}),
    last_used_from_addr: k.lastUsedFrom ?? "",
    revoked: true,
    ...(k.projectId !== undefined ? { project_id: k.projectId } : {}),
  });
  const keyId = (c: Context<EmulatorEnv>): number => {
    const raw = c.req.param("key_id") ?? "";
    if (!/^\d{1,18}$/.test(raw)) throw badRequest(`path parameter key_id "${raw.slice(0, 40)}" must be an integer`, [{ path: "key_id", message: "must be an integer" }]);
    return Number(raw);
  };
  const orgOwner = (c: Context<EmulatorEnv>): KeyOwner => {
    const orgId = c.req.param("org_id") ?? "";
    checkId("org_id", orgId);
    return orgKeyOwner(rt.world, c.get("principal"), orgId);
  };

  r.get("/api_keys", (c) => c.json(listApiKeys(rt.world, personalKeyOwner(c.get("principal"))).map(listItem)));

  r.post("/api_keys", async (c) => {
    const owner = personalKeyOwner(c.get("principal"));
    const body = await readJson(c, ApiKeyCreateRequestSchema);
    const { record, token } = createApiKey(rt.world, owner, { name: body.key_name, createdBy: owner.accountId });
    return c.json({ id: record.id, key: token, name: record.name, created_at: isoTime(record.createdAt), created_by: owner.accountId });
  });

  r.delete("/api_keys/:key_id", (c) => {
    const owner = personalKeyOwner(c.get("principal"));
    return c.json(revokeView(revokeApiKey(rt.world, owner, keyId(c))));
  });

  r.get("/organizations/:org_id/api_keys", (c) => c.json(listApiKeys(rt.world, orgOwner(c)).map(listItem)));

  r.post("/organizations/:org_id/api_keys", async (c) => {
    const owner = orgOwner(c);
    const body = await readJson(c, OrgApiKeyCreateRequestSchema);
    const createdBy = c.get("principal").userId;
    const { record, token } = createApiKey(rt.world, owner, { name: body.key_name, createdBy, ...(body.project_id !== undefined ? { projectId: body.project_id } : {}) });
    return c.json({ id: record.id, key: token, name: record.name, created_at: isoTime(record.createdAt), created_by: createdBy, ...(record.projectId !== undefined ? { project_id: record.projectId } : {}) });
  });

  r.delete("/organizations/:org_id/api_keys/:key_id", (c) => {
    const owner = orgOwner(c);
    return c.json(revokeView(revokeApiKey(rt.world, owner, keyId(c))));
  });

  return r;
}
