/** Custom domain records → the live state's custom domains. Pure. */
import type { ApiCustomDomain } from "../../api/wire-types.js";
import { compareCodePoints } from "../../inspect/normalize.js";
import type { LiveState } from "../../model/live-state.js";
import { domainKey } from "./fields.js";

/** Custom domains sorted by hostname (code points), keyed as their descriptor compares them. */
export function normalizeCustomDomains(domains: readonly ApiCustomDomain[]): NonNullable<LiveState["customDomains"]> {
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
