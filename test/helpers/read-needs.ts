/** Read needs the tests use beside the kinds' own (`readNeedsForPolicy`). */
import type { ReadNeeds } from "../../src/inspect/read-needs.js";
import { DEFAULT_SERVICE_DATABASE } from "../../src/model/desired-state.js";

/** Reads nothing beyond the base state. */
export const NO_FEATURE_READS: ReadNeeds = Object.freeze({});

/** Every source of a plan's wave 2 (a whole branch's live state), with the Data API of `database`. */
export function allFeatureReads(database: string = DEFAULT_SERVICE_DATABASE): ReadNeeds {
  // Left out: the delete guards' reads (wave 3) and a pull's own.
  const every: Required<Omit<ReadNeeds, "bucketObjects" | "dataApiServed" | "firstDataApi" | "credentials">> = {
    databases: true,
    roles: true,
    auth: true,
    dataApi: database,
    buckets: true,
    functions: true,
    triggers: true,
    customDomains: true,
    parentFunctions: true,
    parentRolesDatabases: true,
  };
  return every;
}
