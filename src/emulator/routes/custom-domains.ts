/**
 * Custom domains: parse the wire body, call the domain functions of
 * `engine/custom-domains.ts` (the emulator-wide registry lives there), render the view.
 */
import { Hono, type Context } from "hono";
import { CustomDomainCreateRequestSchema, CustomDomainListQuerySchema } from "../../api/wire/index.js";
import { listDomains, registerDomain, removeDomain } from "../engine/custom-domains.js";
import type { EmulatorEnv } from "../http/env.js";
import { branchFromPath } from "../http/scope.js";
import { readJson, readQuery } from "../http/validate.js";
import { domainView } from "../http/views.js";
import type { EmulatorRuntime } from "../runtime.js";
import type { BranchRec, ProjectRec } from "../store/records.js";
import { nextPage } from "./shared.js";

/** Routes of the custom-domain group. */
export function customDomainRoutes(rt: EmulatorRuntime): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const base = "/projects/:project_id/branches/:branch_id/custom-domains";
  const scope = (c: Context<EmulatorEnv>): { project: ProjectRec; branch: BranchRec } => branchFromPath(rt.world, c, "custom domains");

  r.get(base, (c) => {
    const { project, branch } = scope(c);
    const q = readQuery(c, CustomDomainListQuerySchema);
    const { page, next } = nextPage(listDomains(rt.world, project, branch), q.cursor, q.limit ?? 100, "domain:asc");
    const now = rt.world.clock.now();
    return c.json({ custom_domains: page.map((d) => domainView(d, now)), ...(next !== undefined ? { pagination: { next, cursor: next } } : {}) });
  });

  r.post(base, async (c) => {
    const { project, branch } = scope(c);
    const body = await readJson(c, CustomDomainCreateRequestSchema);
    const rec = registerDomain(rt.world, project, branch, { domain: body.domain, entityType: body.entity_type, entityId: body.entity_id });
    return c.json(domainView(rec, rt.world.clock.now()), 201);
  });

  r.delete(`${base}/:domain`, (c) => {
    const { project, branch } = scope(c);
    removeDomain(rt.world, project, branch, c.req.param("domain"));
    return c.body(null, 204);
  });

  return r;
}
