import { changeId, existingIds, makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import type { ResolvedPolicy } from "../../model/desired-state.js";
import { sameFieldValue } from "../../model/kinds/field.js";
import type { LiveState } from "../../model/live-state.js";
import { DOMAIN_FIELDS, domainKey } from "./fields.js";

const [OWNER] = DOMAIN_FIELDS;

/**
 * Diffs hostnames: register declared ones, move ones registered here to another function
 * (`replace`, override), refuse foreign owners; undeclared function-owned ones are deleted under
 * `prune.customDomains`, every other undeclared hostname is unmanaged.
 */
export function diffDomains(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  // Keyed as the descriptor compares hostnames (`kinds/domain.ts`): `Shop.Example.com.` is `shop.example.com`.
  const byDomain = new Map((live.customDomains ?? []).map((d) => [domainKey(d.domain), d]));
  const liveFunctions = new Map((live.functions ?? []).map((f) => [f.slug, f]));
  const wanted = new Map<string, string>();
  for (const fn of desired.functions) for (const domain of fn.customDomains) wanted.set(domainKey(domain), fn.slug);
  for (const [domain, slug] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const address = `domain.${domain}`;
    const fnChanges = existingIds(sink.changes, [changeId("create", `function.${slug}`), changeId("update", `function.${slug}`)]);
    const current = byDomain.get(domain);
    if (current === undefined) {
      sink.changes.push(
        makeChange({
          address, kind: "domain", action: "create", class: "additive", fields: ["*"], before: null, after: { function: slug },
          reason: `hostname ${domain} is declared for function ${slug} and not registered on the branch`,
          dependsOn: fnChanges, op: { type: "domain-create", domain }, planned: { entityId: slug },
        }),
      );
      continue;
    }
    if (current.entityType !== "function") {
      sink.conflicts.push({
        kind: "domain", identifier: domain, field: "function", current: `${current.entityType} ${current.entityId}`, desired: slug,
        blocking: true, code: "DOMAIN_FOREIGN_OWNER",
        reason: `hostname ${domain} is registered to ${current.entityType} ${current.entityId}, not a function; deregister it there first`,
      });
      continue;
    }
    if (sameFieldValue(OWNER, current.entityId, slug)) {
      if (current.cnameTarget === "") {
        sink.warnings.push({ code: "NO_CNAME_TARGET", message: `hostname ${domain} has no CNAME target: the region has no custom-domain front door`, address });
      }
      continue;
    }
    const target = liveFunctions.get(slug);
    if (fnChanges.length === 0 && target?.active === undefined) {
      sink.conflicts.push({
        kind: "domain", identifier: domain, field: "function", current: current.entityId, desired: slug, blocking: true,
        code: "DOMAIN_TARGET_UNDEPLOYED",
        reason: `hostname ${domain} would move to function ${slug}, which has never deployed successfully and no deployment is planned; fix the function first`,
      });
      continue;
    }
    sink.changes.push(
      makeChange({
        address, kind: "domain", action: "replace", class: "override", fields: ["function"],
        before: { function: current.entityId }, after: { function: slug },
        reason: `hostname ${domain} moves from function ${current.entityId} to ${slug} (deregistered, then registered again)`,
        dependsOn: fnChanges, op: { type: "domain-replace", domain, previousSlug: current.entityId }, planned: { entityId: slug },
      }),
    );
  }
  for (const d of live.customDomains ?? []) {
    if (wanted.has(domainKey(d.domain))) continue;
    const address = `domain.${d.domain}`;
    if (d.entityType === "function" && desired.prune.customDomains) {
      sink.changes.push(
        makeChange({
          address, kind: "domain", action: "delete", class: "override", fields: ["*"], before: { function: d.entityId }, after: null,
          reason: `hostname ${d.domain} is not declared on this branch and prune.customDomains is set`,
          op: { type: "domain-delete", domain: d.domain }, planned: {},
        }),
      );
    } else {
      const why = d.entityType === "function" ? "set prune.customDomains to deregister it" : `owned by ${d.entityType} ${d.entityId}; never pruned`;
      sink.unmanaged.push({ address, kind: "domain", identifier: d.domain, reason: `hostname ${d.domain} is not declared (${why})` });
    }
  }
}
