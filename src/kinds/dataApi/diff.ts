/**
 * The Data API kind's pure diff: create, update of the declared settings, or delete; and what the
 * auth integration shares with it, the service database and the changes a service change waits for.
 */
import { type ResolvedPolicy, serviceDatabase } from "../../model/desired-state.js";
import type { LiveState } from "../../model/live-state.js";
import type { Json } from "../../model/json.js";
import { sameFieldValue, strongestClass } from "../../model/kinds/field.js";
import { existingIds, makeChange, toJson } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import type { ConflictReport } from "../../model/plan.js";
import { didYouMean } from "../../rules/close-names.js";
import { DATA_API_SETTINGS } from "./fields.js";

/**
 * Ids of the changes a service change (auth, Data API) waits for: the control-plane ones
 * (`update:branch`, `update:compute`) and the creation of the service database when this plan creates it.
 */
export function controlPlaneIds(sink: DiffSink, database?: string): string[] {
  return existingIds(sink.changes, ["update:branch", "update:compute", ...(database === undefined ? [] : [`create:database.${database}`])]);
}

/**
 * `SERVICE_DATABASE_MISSING` (reported under `kind`) when the service database is neither on the
 * branch nor declared under `databases` (a claimed project's database, for one, is not `neondb`).
 */
export function databaseMissing(desired: ResolvedPolicy, live: LiveState, kind: "auth" | "dataApi", sink: DiffSink): boolean {
  const db = serviceDatabase(desired);
  if (live.databases === undefined || live.databases.includes(db)) return false;
  if (sink.changes.some((c) => c.change.id === `create:database.${db}`)) return false;
  sink.conflicts.push({
    kind,
    identifier: live.branch.name,
    field: "database",
    current: live.databases,
    desired: db,
    reason:
      `the service database "${db}" does not exist on branch "${live.branch.name}" (databases: ${live.databases.join(", ") || "none"}); ` +
      "set dataApi.database to one of them, or declare it under databases",
    blocking: true,
    code: "SERVICE_DATABASE_MISSING",
  });
  return true;
}

/** The role the Data API gives anonymous requests when the policy names none: it always exists. */
const DEFAULT_ANON_ROLE = "anonymous";

/**
 * The blocking `UNKNOWN_ROLE` of a declared `settings.dbAnonRole` that names no role the branch
 * has, the policy declares, the Data API uses by default or already uses; none while roles are unread.
 */
function unknownAnonRole(desired: ResolvedPolicy, live: LiveState, current: string | undefined): ConflictReport | undefined {
  const role = desired.dataApi.state === "enabled" ? desired.dataApi.settings.dbAnonRole : undefined;
  if (role === undefined || live.roles === undefined) return undefined;
  const known = [...desired.roles.map((r) => r.name), ...live.roles.map((r) => r.name), DEFAULT_ANON_ROLE];
  if (known.includes(role) || role === current) return undefined;
  return {
    kind: "dataApi", identifier: live.branch.name, field: "settings.dbAnonRole", current: current ?? null, desired: role, blocking: true, code: "UNKNOWN_ROLE",
    reason: `dataApi.settings.dbAnonRole names role ${role}, which is neither on the branch nor declared under roles${didYouMean(role, known)}; declare the role under roles, or name one the branch has (the Data API's default is ${DEFAULT_ANON_ROLE})`,
  };
}

/** Diffs the Data API of the service database: create, update of declared settings, or delete. */
export function diffDataApi(desired: ResolvedPolicy, live: LiveState, sink: DiffSink): void {
  const want = desired.dataApi;
  const current = live.dataApi?.enabled === true ? live.dataApi : undefined;
  if (want.state === "unmanaged") return;
  const anonRole = unknownAnonRole(desired, live, current?.settings?.dbAnonRole);
  if (anonRole !== undefined) {
    sink.conflicts.push(anonRole);
    return;
  }
  if (want.state === "disabled") {
    if (current === undefined) return;
    sink.changes.push(
      makeChange({
        address: "dataApi",
        kind: "dataApi",
        action: "delete",
        class: "override",
        fields: ["*"],
        before: { enabled: true, settings: toJson(current.settings) },
        after: null,
        reason: `dataApi: false deletes the Data API of database "${current.database}"`,
        dependsOn: controlPlaneIds(sink),
        op: { type: "data-api-delete", database: current.database },
        planned: {},
      }),
    );
    return;
  }
  const declared = DATA_API_SETTINGS.filter((field) => want.settings[field.modelKey] !== undefined);
  const declaredPolicy = toJson(want.settings);
  if (current === undefined) {
    if (databaseMissing(desired, live, "dataApi", sink)) return;
    if (want.authProvider === "external" && want.jwksUrl === undefined) {
      sink.conflicts.push({
        kind: "dataApi",
        identifier: live.branch.name,
        field: "jwksUrl",
        current: null,
        desired: null,
        reason: "creating a Data API with authProvider \"external\" needs dataApi.jwksUrl (the identity provider's JWKS URL)",
        blocking: true,
        code: "JWKS_URL_REQUIRED",
      });
      return;
    }
    const deps = controlPlaneIds(sink, want.database);
    if (want.authProvider === "builtin") deps.push(...existingIds(sink.changes, ["create:auth"]));
    sink.changes.push(
      makeChange({
        address: "dataApi",
        kind: "dataApi",
        action: "create",
        class: "additive",
        fields: ["*"],
        before: null,
        after: { enabled: true, settings: declaredPolicy },
        reason: `the policy enables the Data API on database "${want.database}" (${want.authProvider} auth provider)`,
        dependsOn: deps,
        op: { type: "data-api-create", database: want.database },
        planned: want.settings,
      }),
    );
    return;
  }
  if (want.authProvider === "external") {
    sink.warnings.push({
      code: "DATA_API_WIRING_UNVERIFIED",
      message:
        "the Data API exists; its auth wiring (authProvider, jwksUrl, providerName, jwtAudience) is not reported by the platform and is not compared. " +
        "To change it, apply dataApi: false, then the new form",
      address: "dataApi",
    });
  }
  if (declared.length === 0) return;
  if (current.settings === null) {
    sink.warnings.push({
      code: "DATA_API_SETTINGS_UNREPORTED",
      message: "the platform reports no Data API settings for this database; the declared settings are not compared",
      address: "dataApi",
    });
    return;
  }
  const liveSettings = current.settings;
  const changed = declared.filter((field) => !sameFieldValue(field, want.settings[field.modelKey], liveSettings[field.modelKey]));
  const beforeSettings: { [key: string]: Json } = {};
  const afterSettings: { [key: string]: Json } = {};
  for (const field of declared) {
    beforeSettings[field.policyKey] = toJson(liveSettings[field.modelKey]);
    afterSettings[field.policyKey] = toJson(want.settings[field.modelKey]);
  }
  const fields = changed.map((field) => `settings.${field.policyKey}`);
  const patch = Object.fromEntries(changed.map((field) => [field.modelKey, want.settings[field.modelKey]]));
  if (fields.length === 0) return;
  sink.changes.push(
    makeChange({
      address: "dataApi",
      kind: "dataApi",
      action: "update",
      class: strongestClass(changed),
      fields,
      before: { enabled: true, settings: beforeSettings },
      after: { enabled: true, settings: afterSettings },
      reason: `the policy changes Data API settings: ${fields.map((f) => f.slice("settings.".length)).join(", ")}`,
      dependsOn: controlPlaneIds(sink),
      op: { type: "data-api-update", database: current.database },
      planned: patch,
    }),
  );
}
