/** The custom-domain kind's stages: its diff, its handlers, and when a policy needs the customDomains feature. */
import { domainRecordsOf } from "./wire.js";
import type { KindStages } from "../module.js";
import { domainRead } from "./read.js";
import { applyDomainCreate, applyDomainDelete, applyDomainReplace, domainResult } from "./apply.js";
import { diffDomains } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const domainStages: KindStages<"domain"> = {
  read: domainRead,
  // The DNS status and the CNAME target are left out.
  compared: (live) => ({ customDomains: live.customDomains?.map((d) => ({ domain: d.domain, entityType: d.entityType, entityId: d.entityId })) }),
  diff: (desired, live, _options, sink) => diffDomains(desired, live, sink),
  declares: (desired) => desired.functions.some((f) => f.customDomains.length > 0),
  result: domainResult,
  handlers: {
    "domain-create": (ctx, _change, op, planned) => applyDomainCreate(ctx, op, planned),
    "domain-replace": (ctx, _change, op, planned) => applyDomainReplace(ctx, op, planned),
    "domain-delete": (ctx, _change, op) => applyDomainDelete(ctx, op),
  },
  // Their ops held the function as `slug`.
  digests: { "domain-create": (planned) => ({ slug: planned.entityId }), "domain-replace": (planned) => ({ slug: planned.entityId }) },
  seed: (live) => ({ branch: { custom_domains: domainRecordsOf(live.customDomains ?? []) } }),
};
