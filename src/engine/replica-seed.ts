import type { EndpointSettingsInput } from "../api/platform-api.js";
import { bucketRecordOf } from "../kinds/bucket/wire.js";
import { endpointSettingsOf } from "../kinds/compute/wire.js";
import { domainRecordsOf } from "../kinds/domain/wire.js";
import { DATA_API_SETTINGS } from "../model/kinds/data-api.js";
import { toWire } from "../model/kinds/field.js";
import { triggerFields } from "../model/kinds/trigger.js";
import type { LiveState, LiveTrigger } from "../model/live-state.js";

/** Value of every env var on a replica: the platform reports names only, so values never matter. */
const REPLICA_ENV_VALUE = "replica";
/** Owner role of the replica's databases (the plan never reads owners). */
const REPLICA_OWNER = "replica_owner";

/** A branch of the emulator's seed document (the part a replica uses; the emulator validates it). */
interface BranchSeed {
  id?: string;
  name: string;
  parent?: string;
  default?: boolean;
  protected?: boolean;
  created_at?: string;
  expires_at?: string;
  endpoints?: (EndpointSettingsInput & { id?: string; type: "read_write" | "read_only" })[];
  roles?: { name: string; no_login?: boolean }[];
  databases?: { name: string; owner_name: string }[];
  buckets?: { name: string; access_level?: string }[];
  objects?: { bucket: string; key: string }[];
  functions?: { slug: string; name?: string; runtime?: string; environment?: Record<string, string> }[];
  triggers?: { id?: string; name: string; function_slug: string; function_path?: string; type: "schedule" | "storage_object_created"; cron?: string; bucket_name?: string; prefix?: string; enabled?: boolean }[];
  custom_domains?: { domain: string; function_slug: string }[];
  auth?: { auth_provider: string; database_name?: string };
  data_api?: { database: string; settings?: Record<string, unknown> | null }[];
}

/** The emulator's seed document, as far as a replica fills it. */
export interface ReplicaSeed {
  version: 1;
  users: { email: string; plan: "scale"; api_keys: { name: string; key: string; admin: boolean }[] }[];
  regions: { region_id: string; platform_features: boolean }[];
  projects: { owner: string; id: string; name: string; region_id: string; pg_version: number; branches: BranchSeed[] }[];
}

type TriggerSeed = NonNullable<BranchSeed["triggers"]>[number];

/** A trigger in the seed's flat form: its descriptor's fields (`kinds/trigger.ts`) in wire names, the type's own beside the common ones. */
function triggerSeed(t: LiveTrigger): TriggerSeed {
  const type = t.type === "storage_object_created" ? "storage_object_created" : "schedule";
  // The seed's keys are the descriptor's wire keys; the live trigger holds every required field.
  return { id: t.id, name: t.name, type, ...toWire(triggerFields(t.type), { ...t }) } as TriggerSeed;
}

/**
 * The branch a plan read, as an emulator seed: the same project, branch, endpoint and trigger
 * ids, settings, env names and fingerprint markers, so the replica answers the plan's reads as
 * the platform did. What the plan did not read is absent. Inherited triggers and the parent's
 * functions sit on a stand-in parent branch, which the branch inherits them from.
 */
export function replicaSeed(live: LiveState, apiKey: string): ReplicaSeed {
  const owner = "replica@svc-config.invalid";
  const functions = (live.functions ?? []).map((f) => ({
    slug: f.slug, name: f.name,
    ...(f.current === undefined ? {} : { runtime: f.current.runtime }),
    environment: Object.fromEntries([...f.envNames, ...f.markers].map((name) => [name, REPLICA_ENV_VALUE])),
  }));
  const hasObjects = live.bucketHasObjects ?? new Map<string, boolean>();
  const branch: BranchSeed = {
    id: live.branch.id,
    name: live.branch.name,
    default: live.branch.isDefault,
    protected: live.branch.protected,
    created_at: live.branch.createdAt,
    ...(live.branch.expiresAt === undefined ? {} : { expires_at: live.branch.expiresAt }),
    endpoints: live.compute === null ? [] : [{ id: live.compute.endpointId, type: "read_write", ...endpointSettingsOf(live.compute) }],
    // Roles and owners as read when the plan manages them; else one stand-in owner.
    roles: live.roles === undefined ? [{ name: REPLICA_OWNER }] : live.roles.map((r) => ({ name: r.name, ...(r.login ? {} : { no_login: true }) })),
    databases: (live.databases ?? []).map((name) => ({ name, owner_name: live.databaseOwners?.get(name) ?? REPLICA_OWNER })),
    buckets: (live.buckets ?? []).map(bucketRecordOf),
    objects: [...hasObjects].filter(([, has]) => has).map(([bucket]) => ({ bucket, key: "replica-object" })),
    functions,
    triggers: (live.triggers ?? []).filter((t) => !t.inherited).map(triggerSeed),
    custom_domains: domainRecordsOf(live.customDomains ?? []),
    ...(live.auth?.enabled === true ? { auth: { auth_provider: "better_auth", ...(live.auth.databaseName === undefined ? {} : { database_name: live.auth.databaseName }) } } : {}),
    data_api: live.dataApi?.enabled === true ? [{ database: live.dataApi.database, settings: live.dataApi.settings && toWire(DATA_API_SETTINGS, live.dataApi.settings) }] : [],
  };
  const branches: BranchSeed[] = [branch];
  if (!live.branch.isDefault) {
    const inherited = (live.triggers ?? []).filter((t) => t.inherited);
    const slugs = [...new Set([...(live.parentFunctionSlugs ?? []), ...inherited.map((t) => t.function)])];
    branches.unshift({
      ...(live.branch.parentId === undefined ? {} : { id: live.branch.parentId }),
      name: live.branch.name === "replica-parent" ? "replica-parent-2" : "replica-parent",
      default: true,
      roles: [{ name: REPLICA_OWNER }, ...(live.parentRoles ?? []).filter((name) => name !== REPLICA_OWNER).map((name) => ({ name }))],
      databases: (live.parentDatabases ?? []).map((name) => ({ name, owner_name: REPLICA_OWNER })),
      functions: slugs.map((slug) => ({ slug })),
      triggers: inherited.map(triggerSeed),
    });
    branch.parent = branches[0]?.name ?? "replica-parent";
  }
  return {
    version: 1,
    users: [{ email: owner, plan: "scale", api_keys: [{ name: "replica", key: apiKey, admin: true }] }],
    regions: [{ region_id: live.project.regionId, platform_features: true }],
    projects: [{ owner, id: live.project.id, name: live.project.name, region_id: live.project.regionId, pg_version: live.project.pgVersion, branches }],
  };
}
