/** Branch auth's domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { addAuthDomain, addOAuthProvider, createAuthUser, deleteAuthUser, disableAuth, enableAuth, findAuth, findOAuthProvider, removeAuthDomains, removeOAuthProvider, updateEmailServer, updateOAuthProvider } from "../../../src/emulator/engine/auth.js";
import type { AuthRec } from "../../../src/emulator/store/records.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("branch auth", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  it("enables auth once on the branch's first database, with keys only for stack", () => {
    expect(refusal(() => findAuth(w.main))).toEqual(["not_found", "not_found"]);
    const auth = enableAuth(w.world, w.main, { auth_provider: "stack" });
    expect([auth.databaseName, auth.secretServerKey.startsWith("ssk_"), auth.pubClientKey.startsWith("pck_"), findAuth(w.main)]).toEqual(["neondb", true, true, auth]);
    expect(refusal(() => enableAuth(w.world, w.main, { auth_provider: "stack" }))).toEqual(["conflict", "already_enabled"]);
    disableAuth(w.main);
    expect([enableAuth(w.world, w.main, { auth_provider: "better_auth" }).secretServerKey, refusal(() => disableAuth(w.main)), refusal(() => disableAuth(w.main))]).toEqual(["", null, ["not_found", "not_found"]]);
  });

  it("refuses a database the branch lacks", () => {
    expect(refusal(() => enableAuth(w.world, w.main, { auth_provider: "stack", database_name: "nodb" }))).toEqual(["not_found", "not_found"]);
    expect(w.main.auth).toBeUndefined();
  });

  describe("with auth enabled", () => {
    let auth: AuthRec;
    beforeEach(() => {
      auth = enableAuth(w.world, w.main, { auth_provider: "better_auth" });
    });

    it("adds a shared provider that becomes standard once it has a client id; a second one is refused", () => {
      expect(addOAuthProvider(w.main, auth, { id: "github" }).type).toBe("shared");
      expect(refusal(() => addOAuthProvider(w.main, auth, { id: "github" }))).toEqual(["conflict", "already_exists"]);
      const updated = updateOAuthProvider(findOAuthProvider(w.main, auth, "github"), { client_id: "cid", client_secret: "cs" });
      expect([updated.type, updated.clientId, updated.clientSecret]).toEqual(["standard", "cid", "cs"]);
      removeOAuthProvider(w.main, auth, "github");
      expect(refusal(() => removeOAuthProvider(w.main, auth, "github"))).toEqual(["not_found", "not_found"]);
    });

    it("accepts a tenant id only for microsoft", () => {
      expect(refusal(() => addOAuthProvider(w.main, auth, { id: "google", microsoft_tenant_id: "t" }))).toEqual(["invalid", "invalid_request"]);
      const microsoft = addOAuthProvider(w.main, auth, { id: "microsoft", microsoft_tenant_id: "t" });
      expect(microsoft.microsoftTenantId).toBe("t");
      const google = addOAuthProvider(w.main, auth, { id: "google" });
      expect(refusal(() => updateOAuthProvider(google, { microsoft_tenant_id: "t" }))).toEqual(["invalid", "invalid_request"]);
    });

    it("lists a redirect domain once and removes the named ones", () => {
      addAuthDomain(auth, "https://a.example.com", "better_auth");
      addAuthDomain(auth, "https://a.example.com", "better_auth");
      addAuthDomain(auth, "https://b.example.com", "better_auth");
      removeAuthDomains(auth, ["https://a.example.com", "https://absent.example.com"]);
      expect(auth.domains.map((d) => d.domain)).toEqual(["https://b.example.com"]);
    });

    it("creates one user per email ignoring case, and deletes by id", () => {
      const user = createAuthUser(w.world, w.main, auth, { email: "Ada@example.com", name: "Ada" });
      expect(refusal(() => createAuthUser(w.world, w.main, auth, { email: "ada@EXAMPLE.com" }))).toEqual(["conflict", "already_exists"]);
      deleteAuthUser(w.main, auth, user.id);
      expect(refusal(() => deleteAuthUser(w.main, auth, user.id))).toEqual(["not_found", "not_found"]);
    });

    it("sets only the email server fields given", () => {
      updateEmailServer(auth, { host: "smtp.example.com", port: 587 });
      updateEmailServer(auth, { sender_name: "Ops" });
      expect(auth.emailServer).toEqual({ host: "smtp.example.com", port: 587, sender_name: "Ops" });
    });
  });
});
