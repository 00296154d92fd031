/** Credentials' domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { createCredential, findUsableCredential, revokeCredential, rotateCredential } from "../../../src/emulator/engine/credentials.js";
import type { CredentialCreateRequest } from "../../../src/api/wire/index.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("credentials", () => {
  let w: UnitWorld;
  let input: CredentialCreateRequest;
  beforeEach(() => {
    w = unitWorld();
    input = { name: "ci", scopes: ["storage:read", "storage:read"], principal_type: "user" };
  });

  it("creates a credential with secrets that embed its short token id, and deduplicated scopes", () => {
    const cred = createCredential(w.world, w.main, input);
    expect([cred.tokenId.startsWith("nak_live_"), cred.apiToken.startsWith(`nt_live_${cred.tokenId.slice(9, 21)}_`), cred.s3SecretAccessKey.startsWith("nsk_live_"), cred.scopes]).toEqual([true, true, true, ["storage:read"]]);
  });

  it("refuses an expiry that is not in the future", () => {
    expect(refusal(() => createCredential(w.world, w.main, { ...input, expires_at: "2020-01-01T00:00:00Z" }))).toEqual(["invalid", "invalid_request"]);
    expect(w.main.credentials.size).toBe(0);
  });

  it("rotates to new secrets and keeps the token id", () => {
    const cred = createCredential(w.world, w.main, input);
    const before = [cred.apiToken, cred.s3SecretAccessKey];
    const rotated = rotateCredential(w.world, w.main, cred.tokenId);
    expect([rotated.tokenId, rotated.apiToken === before[0], rotated.s3SecretAccessKey === before[1]]).toEqual([cred.tokenId, false, false]);
  });

  it("keeps a revoked credential listed but no longer usable; revoking again keeps the first time", () => {
    const cred = createCredential(w.world, w.main, input);
    revokeCredential(w.world, w.main, cred.tokenId);
    const revokedAt = cred.revokedAt;
    w.world.clock.advance(1_000);
    revokeCredential(w.world, w.main, cred.tokenId);
    expect([w.main.credentials.has(cred.tokenId), cred.revokedAt === revokedAt, revokedAt !== undefined]).toEqual([true, true, true]);
    expect([refusal(() => findUsableCredential(w.world, w.main, cred.tokenId)), refusal(() => rotateCredential(w.world, w.main, cred.tokenId))]).toEqual([
      ["not_found", "not_found"],
      ["not_found", "not_found"],
    ]);
    expect(refusal(() => revokeCredential(w.world, w.main, "nak_live_nope"))).toEqual(["not_found", "not_found"]);
  });

  it("stops a credential being usable once it expires", () => {
    const cred = createCredential(w.world, w.main, { ...input, expires_at: "2026-11-20T13:00:00Z" });
    expect(findUsableCredential(w.world, w.main, cred.tokenId)).toBe(cred);
    w.world.clock.advance(3_600_000);
    expect(refusal(() => findUsableCredential(w.world, w.main, cred.tokenId))).toEqual(["not_found", "not_found"]);
  });
});
