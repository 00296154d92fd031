/**
 * Branch-scoped credentials: a credential gets a token id and secrets at creation
 * and new secrets on rotation; revoking keeps the record (listed as revoked); a revoked or
 * expired credential can no longer be revealed or rotated.
 */
import type { CredentialCreateRequest } from "../../api/wire/index.js";
import type { BranchRec, CredentialRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

/** Gives a credential new secrets (the API token embeds the short token id). */
function newSecrets(world: World, cred: CredentialRec): void {
  cred.apiToken = `nt_live_${cred.tokenId.slice(9, 21)}_${world.ids.hex(40)}`;
  cred.s3SecretAccessKey = `nsk_live_${world.ids.hex(64)}`;
}

/** Creates a credential with fresh secrets; `expires_at` must lie in the future. */
export function createCredential(world: World, branch: BranchRec, input: CredentialCreateRequest): CredentialRec {
  const now = world.clock.now();
  let expiresAt: number | undefined;
  if (input.expires_at !== undefined) {
    expiresAt = Date.parse(input.expires_at);
    if (Number.isNaN(expiresAt) || expiresAt <= now) {
      throw new RuleError("invalid", `expires_at ${input.expires_at} must be a future RFC 3339 timestamp`, { field: "expires_at", issue: "must be in the future" });
    }
  }
  const cred: CredentialRec = {
    tokenId: `nak_live_${world.ids.hex(32)}`,
    ...(input.name !== undefined ? { name: input.name } : {}),
    scopes: [...new Set(input.scopes)],
    principalType: input.principal_type,
    apiToken: "",
    s3SecretAccessKey: "",
    createdAt: now,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
  newSecrets(world, cred);
  branch.credentials.set(cred.tokenId, cred);
  return cred;
}

/** Revokes a credential (revoking again keeps the first time); `not_found` when the branch has none of that id. */
export function revokeCredential(world: World, branch: BranchRec, id: string): void {
  const cred = branch.credentials.get(id);
  if (cred === undefined) throw new RuleError("not_found", `credential ${id} not found on branch ${branch.id}`);
  cred.revokedAt ??= world.clock.now();
}

/** A credential that is neither revoked nor expired, or `not_found`. */
export function findUsableCredential(world: World, branch: BranchRec, id: string): CredentialRec {
  const cred = branch.credentials.get(id);
  if (cred === undefined || cred.revokedAt !== undefined || (cred.expiresAt !== undefined && cred.expiresAt <= world.clock.now())) {
    throw new RuleError("not_found", `credential ${id} not found on branch ${branch.id} (or revoked or expired)`);
  }
  return cred;
}

/** Gives a usable credential new secrets. */
export function rotateCredential(world: World, branch: BranchRec, id: string): CredentialRec {
  const cred = findUsableCredential(world, branch, id);
  newSecrets(world, cred);
  return cred;
}
