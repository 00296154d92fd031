import type { LiveState } from "../model/live-state.js";
import { DATA_API_SETTINGS } from "../kinds/dataApi/fields.js";
import { toWire } from "../model/kinds/field.js";
import { sha256Of } from "./canonical-json.js";
import { nameRecord } from "../model/own-record.js";

/**
 * The part of the live state the diff compares: deployment ids and build
 * statuses, DNS status, CNAME targets, invocation URLs and other timestamps are left out.
 */
export function comparedProjection(live: LiveState): unknown {
  return {
    project: { id: live.project.id },
    branch: {
      id: live.branch.id,
      name: live.branch.name,
      createdAt: live.branch.createdAt,
      expiresAt: live.branch.expiresAt ?? null,
      protected: live.branch.protected,
      isDefault: live.branch.isDefault,
    },
    compute: live.compute,
    databases: live.databases,
    roles: live.roles,
    databaseOwners: recordOf(live.databaseOwners),
    parentRoles: live.parentRoles,
    parentDatabases: live.parentDatabases,
    auth: live.auth === undefined ? undefined : { enabled: live.auth.enabled },
    // In wire names, as the fingerprint has always hashed them: saved plans stay comparable.
    dataApi: live.dataApi === undefined ? undefined : { ...live.dataApi, settings: live.dataApi.settings === null ? null : toWire(DATA_API_SETTINGS, live.dataApi.settings) },
    buckets: live.buckets,
    functions: live.functions?.map((f) => ({
      slug: f.slug,
      name: f.name,
      envNames: f.envNames,
      markers: f.markers,
      runtime: f.current?.runtime,
    })),
    triggers: live.triggers,
    customDomains: live.customDomains?.map((d) => ({ domain: d.domain, entityType: d.entityType, entityId: d.entityId })),
    bucketHasObjects: recordOf(live.bucketHasObjects),
    dataApiDatabases: live.dataApiDatabases,
    parentFunctionSlugs: live.parentFunctionSlugs,
    // The kinds' own slices, whole (each kind normalises what it reads to what its diff compares).
    kinds: live.kinds,
  };
}

/** A map as the canonical JSON object it has always been hashed as (keys sorted there). */
function recordOf<V>(map: ReadonlyMap<string, V> | undefined): Record<string, V> | undefined {
  return map === undefined ? undefined : nameRecord(map);
}

/** `sha256:<hex>` of the canonical JSON of {@link comparedProjection}. */
export function stateFingerprint(live: LiveState): string {
  return sha256Of(comparedProjection(live));
}
