import type { AuthValues } from "../kinds/auth/fields.js";
import type { ComputeValues } from "../kinds/compute/fields.js";
import type { BucketValues } from "../kinds/bucket/fields.js";
import type { DataApiSettings } from "../kinds/dataApi/fields.js";
import type { RoleValues } from "../kinds/role/fields.js";
import type { LiveSlices } from "../kinds/index.js";

/**
 * The live state of one branch in the normalised shape the diff reads.
 * Lists are sorted by identifier; timestamps RFC 3339 UTC; hostnames lowercase; cron whitespace
 * collapsed. A field left `undefined` was not read (the policy did not need it); `[]` = read, none.
 */
export interface LiveState {
  project: {
    id: string;
    name: string;
    regionId: string;
    pgVersion: number;
    orgId?: string;
    defaultCompute: Partial<ComputeValues>;
  };
  branch: {
    id: string;
    name: string;
    parentId?: string;
    createdAt: string;
    expiresAt?: string;
    protected: boolean;
    isDefault: boolean;
  };
  /** The first read-write endpoint, or null when the branch has none. */
  compute: ({ endpointId: string } & ComputeValues) | null;
  databases?: string[];
  /** Read when the policy manages roles or databases; the platform's passwords are never read. */
  roles?: LiveRole[];
  /** Owner of each database (`kinds/database/fields.ts`), by name; read with `roles`. */
  databaseOwners?: ReadonlyMap<string, string>;
  /** Role and database names on the parent branch; read only when pruning them (inherited detection). */
  parentRoles?: string[];
  parentDatabases?: string[];
  auth?: { enabled: boolean } & Partial<AuthValues>;
  /** Settings in model vocabulary (values that break their rule dropped); null when the platform reports none. */
  dataApi?: { enabled: boolean; database: string; settings: Partial<DataApiSettings> | null };
  /** Fields as `kinds/bucket.ts` reads them (a value breaking its rule is absent). */
  buckets?: ({ name: string } & Partial<BucketValues>)[];
  functions?: LiveFunction[];
  triggers?: LiveTrigger[];
  customDomains?: { domain: string; entityType: string; entityId: string; cnameTarget: string; status?: string }[];
  /** Whether each bucket holds objects; read only for buckets the plan would delete. */
  bucketHasObjects?: ReadonlyMap<string, boolean>;
  /**
   * Databases that serve a Data API, sorted; read only for databases the plan would delete
   * (their live dependencies: a database in use is never deleted).
   */
  dataApiDatabases?: string[];
  /** Slugs listed on the parent branch; read only when pruning functions (inherited detection). */
  parentFunctionSlugs?: string[];
  /** The slices of the kinds that read their own part (read replicas, …), by kind; absent when none read anything. */
  kinds?: LiveSlices;
}

/** A PostgreSQL role of the branch: its name, its fields (`kinds/role/fields.ts`) and whether the platform protects it. */
export interface LiveRole extends RoleValues {
  name: string;
  /** Platform-managed: never deleted. */
  protected: boolean;
}

/** A deployed function: env names (markers split out) and its deployments. */
export interface LiveFunction {
  slug: string;
  name: string;
  invocationUrl: string;
  /** Env var names without the `SVC_FINGERPRINT_` markers. */
  envNames: string[];
  /** The deployment's fingerprint marker names (`SVC_FINGERPRINT_…`, read by `diff/fingerprint-markers.ts`). */
  markers: string[];
  current?: Deployment;
  active?: Deployment;
}

/** A function deployment as the platform reports it. */
export interface Deployment {
  id: number;
  status: "pending" | "building" | "completed" | "failed";
  runtime: string;
  error?: string;
}

/** A trigger on the branch; `inherited` ones come from the parent branch. */
export interface LiveTrigger {
  id: string;
  name: string;
  type: string;
  function: string;
  functionPath: string;
  enabled: boolean;
  inherited: boolean;
  cron?: string;
  bucket?: string;
  prefix?: string;
}
