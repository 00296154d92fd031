/**
 * Custom domains in a pulled config: listed for the reader, never declared (they may only name
 * declared functions, and functions have no source to pull). Pure.
 */
import type { ApiCustomDomain } from "../../api/wire-types.js";
import { normalizeCustomDomains } from "./read.js";

/** A hostname registered to a function of the branch. */
export interface PulledCustomDomain {
  domain: string;
  /** The function's slug. */
  function: string;
}

/** Hostnames registered to functions (keyed as `fields.ts` compares them, sorted); other owners cannot be declared. */
export function pulledCustomDomains(domains: readonly ApiCustomDomain[]): PulledCustomDomain[] {
  return normalizeCustomDomains(domains)
    .filter((d) => d.entityType === "function")
    .map((d) => ({ domain: d.domain, function: d.entityId }));
}

/**
 * What the rendered policy source says about the pulled hostnames, grouped by function, as lines
 * it comments out (none without hostnames); `render` writes a key and an inline value as the
 * renderer does (its escaping).
 */
export function pulledDomainLines(
  domains: readonly PulledCustomDomain[],
  render: { key: (key: string) => string; inline: (value: { customDomains: string[] }) => string },
): string[] {
  const bySlug = new Map<string, string[]>();
  for (const d of domains) bySlug.set(d.function, [...(bySlug.get(d.function) ?? []), d.domain]);
  if (bySlug.size === 0) return [];
  return [
    "Custom domains on this branch (list them in their function's `customDomains` to manage them):",
    ...[...bySlug].map(([slug, hostnames]) => `  ${render.key(slug)}: ${render.inline({ customDomains: hostnames })},`),
  ];
}
