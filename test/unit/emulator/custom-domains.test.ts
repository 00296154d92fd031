/** Custom domains' domain functions on an in-memory world, without HTTP. */
import { beforeEach, describe, expect, it } from "vitest";
import { listDomains, registerDomain, removeDomain } from "../../../src/emulator/engine/custom-domains.js";
import { deployFunction } from "../../../src/emulator/engine/deployments.js";
import { newBranchRecord } from "../../../src/emulator/engine/lifecycle.js";
import { RuleError } from "../../../src/emulator/engine/rule-error.js";
import { ARCHIVE, refusal, unitWorld, type UnitWorld } from "./unit-world.js";

describe("custom domains", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld({ domainActivationMs: 5_000 });
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE });
  });

  it("registers a normalised domain for a function, active once the activation delay has passed", () => {
    const rec = registerDomain(w.world, w.project, w.main, { domain: "API.Example.com.", entityType: "function", entityId: "api" });
    expect([rec.domain, rec.entityId, rec.activeAt - rec.createdAt]).toEqual(["api.example.com", "api", 5_000]);
    expect(listDomains(w.world, w.project, w.main).map((d) => d.domain)).toEqual(["api.example.com"]);
  });

  it("lists a branch's domains by name, and not another branch's", () => {
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    deployFunction(w.world, child, "web", { archive: ARCHIVE });
    registerDomain(w.world, w.project, w.main, { domain: "b.example.com", entityType: "function", entityId: "api" });
    registerDomain(w.world, w.project, w.main, { domain: "a.example.com", entityType: "function", entityId: "api" });
    registerDomain(w.world, w.project, child, { domain: "c.example.com", entityType: "function", entityId: "web" });
    expect(listDomains(w.world, w.project, w.main).map((d) => d.domain)).toEqual(["a.example.com", "b.example.com"]);
  });

  it("returns the same record when the same owner registers again, and refuses any other owner", () => {
    const first = registerDomain(w.world, w.project, w.main, { domain: "api.example.com", entityType: "function", entityId: "api" });
    expect(registerDomain(w.world, w.project, w.main, { domain: "api.example.com", entityType: "function", entityId: "api" })).toBe(first);
    deployFunction(w.world, w.main, "web", { archive: ARCHIVE });
    expect(refusal(() => registerDomain(w.world, w.project, w.main, { domain: "api.example.com", entityType: "function", entityId: "web" }))).toEqual(["conflict", "domain_taken"]);
  });

  it.each<[string, { domain: string; entityType: string; entityId: string }, [string, string]]>([
    ["a reserved name", { domain: "api.internal", entityType: "function", entityId: "api" }, ["invalid", "invalid_request"]],
    ["an IP literal", { domain: "10.0.0.1", entityType: "function", entityId: "api" }, ["invalid", "invalid_request"]],
    ["another entity type", { domain: "api.example.com", entityType: "bucket", entityId: "api" }, ["invalid", "invalid_entity_type"]],
    ["a function the branch lacks", { domain: "api.example.com", entityType: "function", entityId: "nope" }, ["not_found", "not_found"]],
  ])("refuses %s", (_name, input, expected) => {
    expect(refusal(() => registerDomain(w.world, w.project, w.main, input))).toEqual(expected);
    expect(w.world.domains.size).toBe(0);
  });

  it("names the field and the short issue when it refuses a reserved name", () => {
    try {
      registerDomain(w.world, w.project, w.main, { domain: "x.localhost", entityType: "function", entityId: "api" });
      expect.unreachable("a reserved name was registered");
    } catch (err) {
      expect(err instanceof RuleError ? [err.field, err.issue] : err).toEqual(["domain", "reserved name"]);
    }
  });

  it("removes only a domain registered on the branch", () => {
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    registerDomain(w.world, w.project, w.main, { domain: "api.example.com", entityType: "function", entityId: "api" });
    expect(refusal(() => removeDomain(w.world, w.project, child, "api.example.com"))).toEqual(["not_found", "not_found"]);
    removeDomain(w.world, w.project, w.main, "API.example.com");
    expect(w.world.domains.size).toBe(0);
  });
});
