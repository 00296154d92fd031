import type { PlatformApi } from "../api/platform-api.js";
import { ErrorCode } from "../errors/codes.js";
import { isPlatformError } from "../errors/platform-error.js";

/** A function on a branch and the URL it answers on. */
export interface FunctionService {
  slug: string;
  name: string | null;
  url: string | null;
  inherited: boolean;
}

/** A trigger on a branch, in policy vocabulary. */
export interface TriggerService {
  name: string;
  type: string;
  function: string;
  /** The cron of a schedule, or the bucket (and prefix) of a storage trigger. */
  on: string;
  enabled: boolean;
  inherited: boolean;
}

/** A custom domain and the CNAME target its DNS record must point at. */
export interface DomainService {
  domain: string;
  function: string | null;
  cnameTarget: string | null;
  status: string | null;
}

/** What runs on a branch: functions with URLs, triggers, custom domains. */
export interface BranchServices {
  functions: FunctionService[];
  triggers: TriggerService[];
  customDomains: DomainService[];
}

/** A feature the project's plan or region does not offer reads as none. */
async function orNone<T>(read: Promise<T[]>): Promise<T[]> {
  try {
    return await read;
  } catch (err) {
    if (isPlatformError(err, ErrorCode.FEATURE_UNAVAILABLE)) return [];
    throw err;
  }
}

const byKey = <T>(key: (item: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * Reads a branch's functions (with their invocation URLs, inherited ones included), triggers and
 * custom domains (with CNAME targets) in one parallel wave, for `svc config status` and
 * `svc branch create`.
 */
export async function readBranchServices(api: PlatformApi, ids: { projectId: string; branchId: string }): Promise<BranchServices> {
  const [functions, triggers, domains] = await Promise.all([orNone(api.listFunctions(ids)), orNone(api.listTriggers(ids)), orNone(api.listCustomDomains(ids))]);
  const slugOf = new Map(functions.flatMap((f) => [[f.slug, f.slug], ...(f.id === undefined ? [] : [[f.id, f.slug] as [string, string]])]));
  return {
    functions: functions
      .map((f) => ({ slug: f.slug, name: f.name ?? null, url: f.invocation_url ?? null, inherited: (f as { inherited?: unknown }).inherited === true }))
      .sort(byKey((f) => f.slug)),
    triggers: triggers
      .map((t) => ({
        name: t.name,
        type: t.type,
        function: t.function_slug,
        on: t.schedule !== undefined ? t.schedule.cron : `${t.storage_object_created?.bucket_name ?? "?"}${t.storage_object_created?.prefix === undefined ? "" : `/${t.storage_object_created.prefix}*`}`,
        enabled: t.enabled,
        inherited: t.inherited,
      }))
      .sort(byKey((t) => t.name)),
    customDomains: domains
      .map((d) => ({ domain: d.domain, function: d.entity_type === "function" ? (slugOf.get(d.entity_id) ?? d.entity_id) : null, cnameTarget: d.cname_target ?? null, status: d.status ?? null }))
      .sort(byKey((d) => d.domain)),
  };
}

/** The functions section of {@link renderServicesText} alone: the heading and one line per function. */
export function renderFunctionsText(functions: BranchServices["functions"]): string[] {
  return renderServicesText({ functions, triggers: [], customDomains: [] }).slice(0, functions.length + 1);
}

/** The services as text lines: one section per kind, URLs and CNAME targets in full (never cut). */
export function renderServicesText(services: BranchServices): string[] {
  const pad = (items: string[]): number => Math.max(0, ...items.map((s) => s.length)) + 2;
  const fnWidth = pad(services.functions.map((f) => f.slug));
  const trWidth = pad(services.triggers.map((t) => t.name));
  const dmWidth = pad(services.customDomains.map((d) => d.domain));
  return [
    `Functions (${services.functions.length})`,
    ...services.functions.map((f) => `  ${f.slug.padEnd(fnWidth)}${f.url ?? "(no URL yet)"}${f.name === null ? "" : `  ${f.name}`}${f.inherited ? " (inherited)" : ""}`),
    `Triggers (${services.triggers.length})`,
    ...services.triggers.map(
      (t) => `  ${t.name.padEnd(trWidth)}${t.type} ${t.type === "schedule" ? JSON.stringify(t.on) : t.on} -> ${t.function}${t.enabled ? "" : " (disabled)"}${t.inherited ? " (inherited)" : ""}`,
    ),
    `Custom domains (${services.customDomains.length})`,
    ...services.customDomains.map(
      (d) => `  ${d.domain.padEnd(dmWidth)}-> ${d.function ?? "?"}  CNAME ${d.cnameTarget ?? "(pending)"}${d.status === null ? "" : `  ${d.status}`}`,
    ),
  ];
}
