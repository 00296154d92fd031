/**
 * `svc-config/instant`: claimable Postgres databases. Reads no environment
 * variables and never prints.
 */
export { instantPostgres, type InstantPostgresCreated, type InstantPostgresOptions, type InstantPostgresResult } from "./instant-postgres.js";
export {
  createClaimableDatabase,
  getClaimableDatabase,
  DEFAULT_CLAIM_API_HOST,
  type ClaimableDatabaseRecord,
  type ClaimApiOptions,
  type CreateClaimableDatabaseOptions,
} from "./client.js";
