/**
 * Custom domains: one registry for the whole emulator, so a domain
 * registered by another owner is refused without naming it; the same owner re-registering gets
 * the unchanged record back.
 */
import { checkHostname, normalizeHostname } from "../../rules/hostname.js";
import type { BranchRec, DomainRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { RuleError } from "./rule-error.js";

const RESERVED_SUFFIXES = [".invalid", ".localhost", ".local", ".internal"];

/** What a registration asks for (wire values, validated by shape only). */
export interface DomainInput {
  domain: string;
  entityType: string;
  entityId: string;
}

/** Normalises and checks a domain (refuses internal names, `localhost`, IP literals, bad labels). */
function checkDomain(input: string): string {
  const domain = normalizeHostname(input);
  if (RESERVED_SUFFIXES.some((s) => domain.endsWith(s))) {
    throw new RuleError("invalid", `domain "${input}" is an internal or reserved name; register a public domain you control`, { field: "domain", issue: "reserved name" });
  }
  const check = checkHostname(domain);
  if (!check.valid) throw new RuleError("invalid", `domain ${check.message}`, { field: "domain", issue: check.message });
  return check.hostname;
}

/** The branch's registered domains, by domain name. */
export function listDomains(world: World, project: ProjectRec, branch: BranchRec): DomainRec[] {
  return [...world.domains.values()].filter((d) => d.projectId === project.id && d.branchId === branch.id).sort((a, b) => (a.domain < b.domain ? -1 : 1));
}

/**
 * Registers a domain for a function of the branch; activation follows after the world's
 * `domainActivationMs`. Re-registering the same domain for the same function returns the
 * existing record unchanged.
 */
export function registerDomain(world: World, project: ProjectRec, branch: BranchRec, input: DomainInput): DomainRec {
  const domain = checkDomain(input.domain);
  if (input.entityType !== "function") {
    throw new RuleError("invalid", `entity_type "${input.entityType}" is not supported; only "function" domains can be registered`, { code: "invalid_entity_type", field: "entity_type", issue: "must be function" });
  }
  if (!branch.functions.has(input.entityId)) throw new RuleError("not_found", `entity_id: function "${input.entityId}" not found on branch ${branch.id}; deploy it first`);
  const existing = world.domains.get(domain);
  if (existing !== undefined) {
    const sameOwner = existing.projectId === project.id && existing.branchId === branch.id && existing.entityId === input.entityId;
    if (!sameOwner) throw new RuleError("conflict", `domain ${domain} is already registered; choose another domain or remove the existing registration`, { code: "domain_taken" });
    return existing;
  }
  const now = world.clock.now();
  const rec: DomainRec = {
    domain,
    accountId: world.accountOf(project),
    projectId: project.id,
    branchId: branch.id,
    entityType: "function",
    entityId: input.entityId,
    cnameTarget: `edge.${project.regionId}.emulator.invalid`,
    activeAt: now + world.timings.domainActivationMs,
    createdAt: now,
  };
  world.domains.set(domain, rec);
  // Status is derived from activeAt; the deadline only makes settle() wait for the activation.
  if (world.timings.domainActivationMs > 0) world.scheduler.at(rec.activeAt, () => undefined);
  return rec;
}

/** Removes a domain registered on this branch (`not_found` for one registered elsewhere). */
export function removeDomain(world: World, project: ProjectRec, branch: BranchRec, input: string): void {
  const domain = normalizeHostname(input);
  const rec = world.domains.get(domain);
  if (rec === undefined || rec.projectId !== project.id || rec.branchId !== branch.id) throw new RuleError("not_found", `domain ${domain} is not registered on branch ${branch.id}`);
  world.domains.delete(domain);
}
