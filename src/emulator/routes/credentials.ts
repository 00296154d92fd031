/** Branch-scoped credentials (api.md §16): secrets are shown at create, reveal and rotate only. */
import { Hono, type Context } from "hono";
import { CredentialCreateRequestSchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, notFound } from "../http/errors.js";
import { branchFromPath } from "../http/scope.js";
import { readJson } from "../http/validate.js";
import { credentialMetaView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, CredentialRec } from "../store/records.js";

/** Routes of the credential group. */
export function credentialRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/credentials";
  const scope = (c: Context<EmulatorEnv>): BranchRec => branchFromPath(rt.world, c).branch;
  const secrets = (cred: CredentialRec): void => {
    cred.apiToken = `nt_live_${cred.tokenId.slice(9, 21)}_${rt.world.ids.hex(40)}`;
    cred.s3SecretAccessKey = `nsk_live_${rt.world.ids.hex(64)}`;
  };
  const full = (branch: BranchRec, cred: CredentialRec) => ({
    token_id: cred.tokenId,
    token_id_short: cred.tokenId.slice(9, 21),
    ...(cred.name !== undefined ? { name: cred.name } : {}),
    api_token: cred.apiToken,
    s3_secret_access_key: cred.s3SecretAccessKey,
    scopes: [...cred.scopes],
    branch_id: branch.id,
    created_at: isoTime(cred.createdAt),
    ...(cred.expiresAt !== undefined ? { expires_at: isoTime(cred.expiresAt) } : {}),
  });
  const usable = (c: Context<EmulatorEnv>, branch: BranchRec): CredentialRec => {
    const id = c.req.param("token_id") ?? "";
    const cred = branch.credentials.get(id);
    const now = rt.world.clock.now();
    if (cred === undefined || cred.revokedAt !== undefined || (cred.expiresAt !== undefined && cred.expiresAt <= now)) {
      throw notFound(`credential ${id} not found on branch ${branch.id} (or revoked or expired)`);
    }
    return cred;
  };

  r.get(base, (c) => {
    const branch = scope(c);
    return c.json({ credentials: [...branch.credentials.values()].map((cred) => credentialMetaView(branch.id, cred)) });
  });

  r.post(base, async (c) => {
    const branch = scope(c);
    const body = await readJson(c, CredentialCreateRequestSchema);
    const now = rt.world.clock.now();
    let expiresAt: number | undefined;
    if (body.expires_at !== undefined) {
      expiresAt = Date.parse(body.expires_at);
      if (Number.isNaN(expiresAt) || expiresAt <= now) throw badRequest(`expires_at ${body.expires_at} must be a future RFC 3339 timestamp`, [{ path: "expires_at", message: "must be in the future" }]);
    }
    const cred: CredentialRec = {
      tokenId: `nak_live_${rt.world.ids.hex(32)}`,
      ...(body.name !== undefined ? { name: body.name } : {}),
      scopes: [...new Set(body.scopes)],
      principalType: body.principal_type,
      apiToken: "",
      s3SecretAccessKey: "",
      createdAt: now,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    secrets(cred);
    branch.credentials.set(cred.tokenId, cred);
    return c.json(full(branch, cred), 201);
  });

  r.delete(`${base}/:token_id`, (c) => {
    const branch = scope(c);
    const id = c.req.param("token_id");
    const cred = branch.credentials.get(id);
    if (cred === undefined) throw notFound(`credential ${id} not found on branch ${branch.id}`);
    cred.revokedAt ??= rt.world.clock.now();
    return c.body(null, 204);
  });

  r.post(`${base}/:token_id/reveal`, (c) => {
    const branch = scope(c);
    const cred = usable(c, branch);
    return c.json({ token_id: cred.tokenId, api_token: cred.apiToken, s3_secret_access_key: cred.s3SecretAccessKey });
  });

  r.post(`${base}/:token_id/rotate`, (c) => {
    const branch = scope(c);
    const cred = usable(c, branch);
    secrets(cred);
    return c.json(full(branch, cred));
  });

  return r;
}
