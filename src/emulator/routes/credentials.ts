/**
 * Branch-scoped credentials: secrets are shown at create, reveal and rotate only.
 * Parse the wire body, call the domain functions of `engine/credentials.ts`, render.
 */
import { Hono, type Context } from "hono";
import { CredentialCreateRequestSchema } from "../../api/wire/index.js";
import { isoTime } from "../engine/clock.js";
import { createCredential, findUsableCredential, revokeCredential, rotateCredential } from "../engine/credentials.js";
import type { EmulatorEnv } from "../http/env.js";
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

  r.get(base, (c) => {
    const branch = scope(c);
    return c.json({ credentials: [...branch.credentials.values()].map((cred) => credentialMetaView(branch.id, cred)) });
  });

  r.post(base, async (c) => {
    const branch = scope(c);
    const body = await readJson(c, CredentialCreateRequestSchema);
    return c.json(full(branch, createCredential(rt.world, branch, body)), 201);
  });

  r.delete(`${base}/:token_id`, (c) => {
    const branch = scope(c);
    revokeCredential(rt.world, branch, c.req.param("token_id"));
    return c.body(null, 204);
  });

  r.post(`${base}/:token_id/reveal`, (c) => {
    const branch = scope(c);
    const cred = findUsableCredential(rt.world, branch, c.req.param("token_id"));
    return c.json({ token_id: cred.tokenId, api_token: cred.apiToken, s3_secret_access_key: cred.s3SecretAccessKey });
  });

  r.post(`${base}/:token_id/rotate`, (c) => {
    const branch = scope(c);
    return c.json(full(branch, rotateCredential(rt.world, branch, c.req.param("token_id"))));
  });

  return r;
}
