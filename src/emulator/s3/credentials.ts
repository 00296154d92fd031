/**
 * Who may use a branch's object storage through the S3 endpoint: the branch's own key pair (the
 * `AWS_*` credentials functions get; derived from the emulator's secret, so it needs no record and
 * survives a restart on the same data dir) and the branch's credentials holding `storage:read` or
 * `storage:write` (their token id is the access key id). A key of another branch is unknown here.
 */
import { createHmac } from "node:crypto";
import type { BranchRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";

/** An access key pair. */
export interface StorageKeyPair {
  accessKeyId: string;
  secretAccessKey: string;
}

/** What a key may do on the branch's buckets. */
export interface StorageGrant {
  secret: string;
  read: boolean;
  write: boolean;
}

function derive(world: World, purpose: string, project: ProjectRec, branch: BranchRec): string {
  return createHmac("sha256", world.presignSecret).update(`${purpose}\u0000${project.id}\u0000${branch.id}`).digest("hex");
}

/** The branch's own key pair, shaped like a credential's (`nak_live_…`, `nsk_live_…`). */
export function branchStorageKeys(world: World, project: ProjectRec, branch: BranchRec): StorageKeyPair {
  return {
    accessKeyId: `nak_live_${derive(world, "s3-access-key-id", project, branch).slice(0, 32)}`,
    secretAccessKey: `nsk_live_${derive(world, "s3-secret-access-key", project, branch)}`,
  };
}

/** The grant of `accessKeyId` on this branch, or null when the branch knows no such usable key. */
export function storageGrant(world: World, project: ProjectRec, branch: BranchRec, accessKeyId: string): StorageGrant | null {
  const own = branchStorageKeys(world, project, branch);
  if (accessKeyId === own.accessKeyId) return { secret: own.secretAccessKey, read: true, write: true };
  const cred = branch.credentials.get(accessKeyId);
  if (cred === undefined || cred.revokedAt !== undefined || (cred.expiresAt !== undefined && cred.expiresAt <= world.clock.now())) return null;
  return { secret: cred.s3SecretAccessKey, read: cred.scopes.includes("storage:read"), write: cred.scopes.includes("storage:write") };
}
