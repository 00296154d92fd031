/** The custom-domain kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { DomainOperations, DomainLiveFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { type PulledCustomDomain, domainPull } from "./pull.js";

/** Custom domains (a function's `customDomains`). */
export const domainKind: KindLight<"domain"> = {
  name: "domain",
  scope: "named",
  feature: "customDomains",
  // Its one part of the static policy: `prune.customDomains` (the hostnames are a function's `customDomains`).
  policy: { prune: { flag: "customDomains", order: 30 } },
  pull: domainPull,
  outputs: (result) =>
    (result.customDomains ?? []).flatMap((d) =>
      d.cnameTarget === undefined || d.cnameTarget === "" ? [] : [{ address: `domain.${d.domain}`, name: "cnameTarget" as const, value: d.cnameTarget }],
    ),
  stages: async () => (await import("./stages.js")).domainStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: custom domains. */
    domain: { scope: "named"; operations: DomainOperations; liveFields: DomainLiveFields; feature: "customDomains";
      preview: { customDomains: PulledCustomDomain[] };
      policy: { prune: { customDomains?: boolean } };
    };
  }
}
