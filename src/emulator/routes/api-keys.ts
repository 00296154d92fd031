/** API keys, personal and organization (api.md §18); tokens are returned once and stored hashed. */
import { Hono, type Context } from "hono";
import { ApiKeyCreateRequestSchema, OrgApiKeyCreateRequestSchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, forbidden, notFound } from "../http/errors.js";
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
  const personal = (c: Context<EmulatorEnv>): string => {
    const principal = c.get("principal");
    if (principal.orgId !== undefined) throw forbidden("/api_keys manages personal keys and needs a personal API key; use /organizations/{org_id}/api_keys for organization keys");
    return principal.userId;
  };
  const orgAdmin = (c: Context<EmulatorEnv>): string => {
    const orgId = c.req.param("org_id") ?? "";
    checkId("org_id", orgId);
    const org = rt.world.orgs.get(orgId);
    const principal = c.get("principal");
    const visible = org !== undefined && (principal.orgId === orgId || org.members.has(principal.userId));
    if (!visible) throw notFound(`organization ${orgId} not found (or not visible to this API key)`);
    const isAdmin = principal.orgId === orgId ? principal.key.projectId === undefined : org.members.get(principal.userId) === "admin";
    if (!isAdmin) throw forbidden(`managing the API keys of organization ${orgId} needs an organization admin`);
    return orgId;
  };

  r.get("/api_keys", (c) => {
    const userId = personal(c);
    const keys = [...rt.world.keysById.values()].filter((k) => k.kind === "personal" && k.accountId === userId && !k.revoked);
    return c.json(keys.map(listItem));
  });

  r.post("/api_keys", async (c) => {
    const userId = personal(c);
    const body = await readJson(c, ApiKeyCreateRequestSchema);
    const token = rt.world.ids.apiKeyToken();
    const rec = rt.world.addKey(token, { name: body.key_name, kind: "personal", accountId: userId, createdBy: userId, admin: false, createdAt: rt.world.clock.now() });
    return c.json({ id: rec.id, key: token, name: rec.name, created_at: isoTime(rec.createdAt), created_by: userId });
  });

  r.delete("/api_keys/:key_id", (c) => {
    const userId = personal(c);
    const id = keyId(c);
    const rec = rt.world.keysById.get(id);
    if (rec === undefined || rec.kind !== "personal" || rec.accountId !== userId || rec.revoked) throw notFound(`API key ${id} not found (or already revoked)`);
    rec.revoked = true;
    return c.json(revokeView(rec));
  });

  r.get("/organizations/:org_id/api_keys", (c) => {
    const orgId = orgAdmin(c);
    const keys = [...rt.world.keysById.values()].filter((k) => k.kind === "org" && k.accountId === orgId && !k.revoked);
    return c.json(keys.map(listItem));
  });

  r.post("/organizations/:org_id/api_keys", async (c) => {
    const orgId = orgAdmin(c);
    const body = await readJson(c, OrgApiKeyCreateRequestSchema);
    if (body.project_id !== undefined && rt.world.projects.get(body.project_id)?.orgId !== orgId) throw notFound(`project_id: project ${body.project_id} not found in organization ${orgId}`);
    const token = rt.world.ids.apiKeyToken();
    const createdBy = c.get("principal").userId;
    const rec = rt.world.addKey(token, {
      name: body.key_name,
      kind: "org",
      accountId: orgId,
      createdBy,
      ...(body.project_id !== undefined ? { projectId: body.project_id } : {}),
      admin: false,
      createdAt: rt.world.clock.now(),
    });
    return c.json({ id: rec.id, key: token, name: rec.name, created_at: isoTime(rec.createdAt), created_by: createdBy, ...(rec.projectId !== undefined ? { project_id: rec.projectId } : {}) });
  });

  r.delete("/organizations/:org_id/api_keys/:key_id", (c) => {
    const orgId = orgAdmin(c);
    const id = keyId(c);
    const rec = rt.world.keysById.get(id);
    if (rec === undefined || rec.kind !== "org" || rec.accountId !== orgId || rec.revoked) throw notFound(`API key ${id} not found in organization ${orgId} (or already revoked)`);
    rec.revoked = true;
    return c.json(revokeView(rec));
  });

  return r;
}
