/** The custom-domain kind as the registry holds it: its diff, its handlers, and when a policy needs the customDomains feature. */
import type { DomainOperations } from "./fields.js";
import { domainRecordsOf } from "./wire.js";
import type { KindModule } from "../module.js";
import { applyDomainCreate, applyDomainDelete, applyDomainReplace } from "./apply.js";
import { diffDomains } from "./diff.js";

/** Custom domains (a function's `customDomains`). */
export const domainKind: KindModule<"domain"> = {
  name: "domain",
  scope: "named",
  feature: "customDomains",
  diff: (desired, live, _options, sink) => diffDomains(desired, live, sink),
  declares: (desired) => desired.functions.some((f) => f.customDomains.length > 0),
  handlers: {
    "domain-create": applyDomainCreate,
    "domain-replace": applyDomainReplace,
    "domain-delete": (ctx, _change, op) => applyDomainDelete(ctx, op),
  },
  seed: (live) => ({ branch: { custom_domains: domainRecordsOf(live.customDomains ?? []) } }),
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: custom domains. */
    domain: { scope: "named"; operations: DomainOperations; feature: "customDomains" };
  }
}
