/** The custom-domain kind as the registry holds it: its diff, its handlers, and when a policy needs the customDomains feature. */
import type { DomainOperations } from "./fields.js";
import { domainRecordsOf } from "./wire.js";
import { type PulledCustomDomain, domainPull } from "./pull.js";
import type { KindModule } from "../module.js";
import { applyDomainCreate, applyDomainDelete, applyDomainReplace, domainResult } from "./apply.js";
import { diffDomains } from "./diff.js";

/** Custom domains (a function's `customDomains`). */
export const domainKind: KindModule<"domain"> = {
  name: "domain",
  scope: "named",
  feature: "customDomains",
  diff: (desired, live, _options, sink) => diffDomains(desired, live, sink),
  declares: (desired) => desired.functions.some((f) => f.customDomains.length > 0),
  pull: domainPull,
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

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: custom domains. */
    domain: { scope: "named"; operations: DomainOperations; feature: "customDomains";
      preview: { customDomains: PulledCustomDomain[] };
    };
  }
}
