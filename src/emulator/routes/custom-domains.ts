/**
 * Custom domains (api.md §15, emulator.md §7.5): one registry for the whole emulator, so a domain
 * registered by another owner answers 409 without naming it; the same owner re-registering is a
 * no-op (201, unchanged record).
 */
import { Hono, type Context } from "hono";
import { CustomDomainCreateRequestSchema, CustomDomainListQuerySchema } from "../../api/wire/index.js";
import { checkHostname, normalizeHostname } from "../../rules/hostname.js";
import type { EmulatorEnv } from "../http/env.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { branchFromPath } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { domainView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, DomainRec, ProjectRec } from "../store/records.js";
import { nextPage } from "./shared.js";

const RESERVED_SUFFIXES = [".invalid", ".localhost", ".local", ".internal"];

/** Normalises and checks a domain (400 for internal names, `localhost`, IP literals, bad labels). */
function checkDomain(input: string): string {
  const domain = normalizeHostname(input);
  if (RESERVED_SUFFIXES.some((s) => domain.endsWith(s))) {
    throw badRequest(`domain "${input}" is an internal or reserved name; register a public domain you control`, [{ path: "domain", message: "reserved name" }]);
  }
  const check = checkHostname(domain);
  if (!check.valid) throw badRequest(`domain ${check.message}`, [{ path: "domain", message: check.message }]);
  return check.hostname;
}

/** Routes of the custom-domain group. */
export function customDomainRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/custom-domains";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c, "custom domains");
  const onBranch = (project: ProjectRec, branch: BranchRec): DomainRec[] =>
    [...rt.world.domains.values()].filter((d) => d.projectId === project.id && d.branchId === branch.id).sort((a, b) => (a.domain < b.domain ? -1 : 1));

  r.get(base, (c) => {
    const { project, branch } = scope(c);
    const q = readQuery(c, CustomDomainListQuerySchema);
    const { page, next } = nextPage(onBranch(project, branch), q.cursor, q.limit ?? 100, "domain:asc");
    const now = rt.world.clock.now();
    return c.json({ custom_domains: page.map((d) => domainView(d, now)), ...(next !== undefined ? { pagination: { next, cursor: next } } : {}) });
  });

  r.post(base, async (c) => {
    const world = rt.world;
    const { project, branch } = scope(c);
    const body = await readJson(c, CustomDomainCreateRequestSchema);
    const domain = checkDomain(body.domain);
    if (body.entity_type !== "function") throw badRequest(`entity_type "${body.entity_type}" is not supported; only "function" domains can be registered`, [{ path: "entity_type", message: "must be function" }], "invalid_entity_type");
    if (!branch.functions.has(body.entity_id)) throw notFound(`entity_id: function "${body.entity_id}" not found on branch ${branch.id}; deploy it first`);
    const existing = world.domains.get(domain);
    const now = world.clock.now();
    if (existing !== undefined) {
      const sameOwner = existing.projectId === project.id && existing.branchId === branch.id && existing.entityId === body.entity_id;
      if (!sameOwner) throw conflict(`domain ${domain} is already registered; choose another domain or remove the existing registration`, "domain_taken");
      return c.json(domainView(existing, now), 201);
    }
    const rec: DomainRec = {
      domain,
      accountId: world.accountOf(project),
      projectId: project.id,
      branchId: branch.id,
      entityType: "function",
      entityId: body.entity_id,
      cnameTarget: `edge.${project.regionId}.emulator.invalid`,
      activeAt: now + world.timings.domainActivationMs,
      createdAt: now,
    };
    world.domains.set(domain, rec);
    // Status is derived from activeAt; the deadline only makes settle() wait for the activation.
    if (world.timings.domainActivationMs > 0) world.scheduler.at(rec.activeAt, () => undefined);
    return c.json(domainView(rec, now), 201);
  });

  r.delete(`${base}/:domain`, (c) => {
    const { project, branch } = scope(c);
    const domain = normalizeHostname(c.req.param("domain"));
    const rec = rt.world.domains.get(domain);
    if (rec === undefined || rec.projectId !== project.id || rec.branchId !== branch.id) throw notFound(`domain ${domain} is not registered on branch ${branch.id}`);
    rt.world.domains.delete(domain);
    return c.body(null, 204);
  });

  return r;
}
