/**
 * Custom domains in a pulled config: listed for the reader, never declared (they may only name
 * declared functions, and functions have no source to pull). Pure.
 */
import type { ApiCustomDomain } from "../../api/wire-types.js";
import { type KindPull, type SourceText, commentSection } from "../../inspect/kind-pull.js";
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
 * it comments out (none without hostnames).
 */
function pulledDomainLines(domains: readonly PulledCustomDomain[], text: SourceText): string[] {
  const bySlug = new Map<string, string[]>();
  for (const d of domains) bySlug.set(d.function, [...(bySlug.get(d.function) ?? []), d.domain]);
  return commentSection(
    "Custom domains on this branch (list them in their function's `customDomains` to manage them):",
    [...bySlug].map(([slug, hostnames]) => `  ${text.key(slug)}: ${text.inline({ customDomains: hostnames })},`),
  );
}

/** Hostnames are listed in `preview.customDomains` and commented on under their functions; `prune.customDomains` is stated when the branch has any. */
export const domainPull = {
  preview: (records) => ({ customDomains: pulledCustomDomains(records.customDomains) }),
  prune: { key: "customDomains", live: (records) => records.customDomains.length },
  comments: (preview, text) => pulledDomainLines(preview.customDomains ?? [], text),
} satisfies KindPull;
