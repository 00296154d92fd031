/** Custom domain records → the live state's custom domains: the custom-domain kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiCustomDomain } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import { type LiveCustomDomain, domainKey } from "./fields.js";

/** Custom domains sorted by hostname (code points), keyed as their descriptor compares them. */
export function normalizeCustomDomains(domains: readonly ApiCustomDomain[]): LiveCustomDomain[] {
  return domains
    .map((d) => ({
      domain: domainKey(d.domain),
      entityType: d.entity_type,
      entityId: d.entity_id,
      cnameTarget: d.cname_target,
      ...(d.status === undefined ? {} : { status: d.status }),
    }))
    .sort((a, b) => compareCodePoints(a.domain, b.domain));
}

/** The custom-domain kind's read: the custom domains when a function of the policy declares one or their prune flag is stated. */
export const domainRead: KindRead<LiveContributionOf<"domain">> = {
  pull: { needs: { customDomains: true } },
  needs: ({ functions, prune, pruneStated }) =>
    functions.some((f) => f.customDomains.length > 0) || prune.customDomains || pruneStated.customDomains ? { customDomains: true } : {},
  slice: ({ customDomains }) => (customDomains === undefined ? {} : { customDomains: normalizeCustomDomains(customDomains) }),
};
