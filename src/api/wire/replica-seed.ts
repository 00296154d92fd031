/**
 * The emulator's seed document as a replica of a branch fills it (the emulator validates it), and
 * what each kind contributes to it: the replica answers a plan's reads as the platform did.
 */
import type { EndpointSettingsInput } from "../../kinds/compute/wire.js";

/** Value of every env var on a replica: the platform reports names only, so values never matter. */
export const REPLICA_ENV_VALUE = "replica";
/** Owner role of the replica's databases when the plan read no owners, and the stand-in parent's one role. */
export const REPLICA_OWNER = "replica_owner";

/** A branch of the emulator's seed document (the part a replica uses). */
export interface BranchSeed {
  id?: string;
  name: string;
  parent?: string;
  default?: boolean;
  protected?: boolean;
  created_at?: string;
  expires_at?: string;
  endpoints?: (EndpointSettingsInput & { id?: string; name?: string; type: "read_write" | "read_only" })[];
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

/**
 * What one kind seeds from the live state a plan read: its records on the replica's branch, and
 * on the stand-in parent those the branch inherits (only used when the branch is not the default).
 * What the plan did not read is left out. Lists of records of several kinds (endpoints: the
 * read-write compute and the read replicas) are joined, in the registry's order.
 */
export interface KindSeed {
  branch?: Omit<Partial<BranchSeed>, "name" | "parent">;
  parent?: Omit<Partial<BranchSeed>, "name" | "parent" | "id" | "default">;
}
