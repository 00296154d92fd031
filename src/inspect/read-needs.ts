/**
 * Which feature reads a plan needs: derived from the resolved policy by a pure
 * function, so a policy that manages little costs few requests.
 */
import type { ResolvedPolicy } from "../model/desired-state.js";

/** The database the Data API and auth attach to when the policy names none. */
export const DEFAULT_SERVICE_DATABASE = "neondb";

/** The feature reads of wave 2 (after project, branch and endpoints). */
export interface ReadNeeds {
  databases: boolean;
  /** The service database whose Data API is read, or `null` for none. */
  dataApiDatabase: string | null;
  auth: boolean;
  buckets: boolean;
  functions: boolean;
  triggers: boolean;
  customDomains: boolean;
  /** The parent's function slugs (inherited detection when pruning functions). */
  parentFunctions: boolean;
  /** Roles and database owners (with `databases`): the policy manages roles or databases. */
  roles: boolean;
  /** The parent's role and database names (inherited detection when pruning them). */
  parentRolesDatabases: boolean;
}

/** Reads nothing beyond the base state. */
export const NO_FEATURE_READS: ReadNeeds = Object.freeze({
  databases: false,
  dataApiDatabase: null,
  auth: false,
  buckets: false,
  functions: false,
  triggers: false,
  customDomains: false,
  parentFunctions: false,
  roles: false,
  parentRolesDatabases: false,
});

/** Every read (e.g. for a full inspection), with the Data API of `database`. */
export function allFeatureReads(database: string = DEFAULT_SERVICE_DATABASE): ReadNeeds {
  return {
    databases: true,
    dataApiDatabase: database,
    auth: true,
    buckets: true,
    functions: true,
    triggers: true,
    customDomains: true,
    parentFunctions: true,
    roles: true,
    parentRolesDatabases: true,
  };
}

/** The reads a plan of `policy` needs. */
export function readNeedsForPolicy(policy: ResolvedPolicy): ReadNeeds {
  const { dataApi, prune } = policy;
  // A kind is read when pruned or when its prune flag is stated at all (to list unmanaged items).
  const listed = policy.pruneStated;
  const dataApiManaged = dataApi.state !== "unmanaged";
  const authOn = policy.auth === "enabled";
  const builtinDataApi = dataApi.state === "enabled" && dataApi.authProvider === "builtin";
  const storageTriggers = policy.triggers.some((t) => t.type === "storage_object_created");
  const anyDomains = policy.functions.some((f) => f.customDomains.length > 0);
  const pruneRolesDatabases = prune.roles || prune.databases || listed.roles || listed.databases;
  const rolesDatabases = policy.roles.length > 0 || policy.databases.length > 0 || pruneRolesDatabases;
  return {
    databases: dataApiManaged || authOn || rolesDatabases,
    dataApiDatabase: dataApiManaged ? (dataApi.state === "enabled" ? dataApi.database : DEFAULT_SERVICE_DATABASE) : null,
    // Pruning databases reads auth too: the database it lives on is never deleted.
    auth: authOn || policy.authDeclaredOff || builtinDataApi || prune.databases,
    buckets: policy.buckets.length > 0 || storageTriggers || prune.buckets || listed.buckets,
    functions: policy.functions.length > 0 || prune.functions || listed.functions,
    triggers: policy.triggers.length > 0 || prune.functions || prune.triggers || prune.buckets || listed.triggers,
    customDomains: anyDomains || prune.customDomains || prune.functions || listed.customDomains,
    parentFunctions: prune.functions || listed.functions,
    // A declared anonymous role of the Data API is checked against the branch's roles.
    roles: rolesDatabases || (dataApi.state === "enabled" && dataApi.settings.dbAnonRole !== undefined),
    parentRolesDatabases: pruneRolesDatabases,
  };
}
