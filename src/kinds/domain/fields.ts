/**
 * The custom domain resource kind (docs/policy.md#custom-domains): a hostname registered to a
 * function. The hostname is the key, compared case-insensitively without a trailing dot; the
 * function it points to is its one field (moving it is an override). The
 * inspector, the diff, the handlers' request bodies and the pull read it. Plain data.
 */
import { normalizeHostname } from "../../rules/hostname.js";
import { type ModelValues, defineField } from "../../model/kinds/field.js";

/** The hostname: the key of a custom domain (wire `domain`). */
export const DOMAIN_HOSTNAME = defineField("domain", "domain", { type: "string", nonEmpty: true }, "additive", { compare: "hostname" });

/** The fields of a custom domain. The policy names the function (`function`); the wire its entity. */
export const DOMAIN_FIELDS = [
  { ...defineField("function", "entity_id", { type: "string", nonEmpty: true }, "override"), modelKey: "entityId" },
] as const;

/** The form hostnames are keyed and compared in (its comparison: `Shop.Example.com.` is `shop.example.com`). */
export function domainKey(hostname: string): string {
  return normalizeHostname(hostname);
}

/** A planned registration → the registration body's fields in wire names; a hostname is only ever registered to a function. */
export function domainToWire(hostname: string, planned: DomainValues) {
  const [owner] = DOMAIN_FIELDS;
  return { [DOMAIN_HOSTNAME.wireKey]: domainKey(hostname), entity_type: "function", [owner.wireKey]: planned[owner.modelKey] };
}

/** A custom domain's fields in model vocabulary: the function it points to (`entityId`). */
export type DomainValues = ModelValues<typeof DOMAIN_FIELDS>;

/** The operations on hostname `op.domain`: `planned`, the function it is registered to. */
export interface DomainOperations {
  "domain-create": { op: { domain: string }; planned: DomainValues };
  /** `previousSlug`: the function the plan found owning the hostname (re-checked before it is deregistered). */
  "domain-replace": { op: { domain: string; previousSlug: string }; planned: DomainValues };
  "domain-delete": { op: { domain: string }; planned: Record<never, never> };
}

/** A custom domain as read, keyed by its hostname as the descriptor compares it. */
export interface LiveCustomDomain {
  domain: string;
  entityType: string;
  entityId: string;
  cnameTarget: string;
  status?: string;
}

/** The custom-domain kind's field of the live state (`LiveState`). */
export interface DomainLiveFields {
  customDomains?: LiveCustomDomain[];
}
