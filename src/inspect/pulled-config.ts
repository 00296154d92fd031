/**
 * The live branch as a policy (`PulledBranchConfig`). Pure: builds the
 * result from records already read.
 */
import type { ApiAuthIntegration, ApiBranch, ApiBucket, ApiCredential, ApiCustomDomain, ApiDataApi, ApiDatabase, ApiEndpoint, ApiFunction, ApiProject, ApiRole, ApiTrigger } from "../api/wire-types.js";
import { defineConfig } from "../config/define-config.js";
import type { BranchTuning, PolicyConfig } from "../config/policy-types.js";
import type { KindTunings } from "../kinds/index.js";
import { pulledBranchSettings } from "../kinds/branch/pull.js";
import { pulledComputeSettings } from "../kinds/compute/pull.js";
import { pulledDataApi } from "../kinds/dataApi/pull.js";
import { pulledDatabases } from "../kinds/database/pull.js";
import { pulledRoles } from "../kinds/role/pull.js";
import { compareCodePoints, normalizeTimestamp } from "./normalize.js";
import { type PulledTrigger, pulledTriggers } from "../kinds/trigger/pull.js";
import { type PulledCustomDomain, pulledCustomDomains } from "../kinds/domain/pull.js";
import { type PulledBucket, pulledBuckets } from "../kinds/bucket/pull.js";

/** A credential as `pullConfig` shows it: metadata, never secrets. */
export interface PulledCredential {
  tokenId: string;
  name?: string;
  scopes: string[];
  createdAt: string;
  expiresAt?: string;
}

/** What `inspect` / `pullConfig` return. */
export interface PulledBranchConfig {
  project: { id: string; name: string; region: string; pgVersion: number; orgId?: string };
  branch: { id: string; name: string; parent?: string; isDefault: boolean; protected: boolean; expiresAt?: string };
  /** A policy that passes `defineConfig`; planning it against this branch gives no changes. */
  config: PolicyConfig;
  /**
   * Live items the policy does not carry (functions have no source to pull, and triggers and
   * hostnames may only name declared functions); omitted when every list is empty.
   */
  preview?: {
    buckets: PulledBucket[];
    functions: { slug: string; name: string }[];
    credentials: PulledCredential[];
    /** The branch's own triggers (not inherited ones) as `triggers` would declare them. */
    triggers: PulledTrigger[];
    /** Hostnames registered to the branch's functions, as each function's `customDomains` would list them. */
    customDomains: PulledCustomDomain[];
  };
}

/** The records a pull is built from. */
export interface PulledBranchRecords {
  project: ApiProject;
  branch: ApiBranch;
  /** Every branch of the project (for the parent's name). */
  branches: readonly ApiBranch[];
  endpoints: readonly ApiEndpoint[];
  /** The branch's roles (never passwords) and databases. */
  roles: readonly ApiRole[];
  databases: readonly ApiDatabase[];
  auth: ApiAuthIntegration | null;
  /** The Data API and the database it was read on, or null when none was read or it is off. */
  dataApi: { database: string; record: ApiDataApi } | null;
  buckets: readonly ApiBucket[];
  functions: readonly ApiFunction[];
  credentials: readonly ApiCredential[];
  triggers: readonly ApiTrigger[];
  customDomains: readonly ApiCustomDomain[];
}

/**
 * A kind's keys of the pulled branch tuning (`KindTunings`: `readReplicas`, …) in their policy form,
 * from the records a pull read; `{}` when it has nothing to declare.
 */
export type KindPull = (records: PulledBranchRecords) => KindTunings;

/** Builds the pulled config, with the tuning keys `kinds` pull; the policy is validated through `defineConfig`. */
export function buildPulledBranchConfig(records: PulledBranchRecords, kinds: readonly KindPull[] = []): PulledBranchConfig {
  const { project, branch } = records;
  const parent = branch.parent_id === undefined ? undefined : records.branches.find((b) => b.id === branch.parent_id)?.name;
  const policy: PolicyConfig = {};
  if (records.auth !== null) policy.auth = true;
  if (records.dataApi !== null) policy.dataApi = pulledDataApi(records.dataApi, records.auth !== null);
  const roles = pulledRoles(records.roles);
  if (Object.keys(roles).length > 0) policy.roles = roles;
  const databases = pulledDatabases(records.databases);
  if (Object.keys(databases).length > 0) policy.databases = databases;
  const tuning = pulledTuning(records, parent, kinds);
  // The tuning belongs to the kind of branch it was pulled from: a preview created from a pulled
  // default branch's file is not protected just because the default branch is.
  policy.branch = (t) => ((t.isDefault === true) === branch.default ? structuredClone(tuning) : {});

  const buckets = pulledBuckets(records.buckets);
  const functions = records.functions.map((f) => ({ slug: f.slug, name: f.name })).sort((a, b) => compareCodePoints(a.slug, b.slug));
  const credentials = records.credentials
    .filter((c) => c.revoked_at === undefined)
    .map(pulledCredential)
    .sort((a, b) => compareCodePoints(a.tokenId, b.tokenId));
  const triggers = pulledTriggers(records.triggers);
  const customDomains = pulledCustomDomains(records.customDomains);
  const hasPreview = buckets.length + functions.length + credentials.length + triggers.length + customDomains.length > 0;
  // Stated (false: nothing is deleted), the flags make a plan of the pulled file read these kinds
  // and list what it does not declare as unmanaged.
  if (records.buckets.length + records.functions.length + records.triggers.length + records.customDomains.length > 0) {
    policy.prune = { buckets: false, functions: false, triggers: false, customDomains: false };
  }

  return {
    project: {
      id: project.id,
      name: project.name,
      region: project.region_id,
      pgVersion: project.pg_version,
      ...(project.org_id === undefined ? {} : { orgId: project.org_id }),
    },
    branch: {
      id: branch.id,
      name: branch.name,
      ...(parent === undefined ? {} : { parent }),
      isDefault: branch.default,
      protected: branch.protected,
      ...(branch.expires_at === undefined ? {} : { expiresAt: normalizeTimestamp(branch.expires_at) }),
    },
    config: defineConfig(policy),
    ...(hasPreview ? { preview: { buckets, functions, credentials, triggers, customDomains } } : {}),
  };
}

/**
 * The branch's own settings, the compute settings that differ from the project's defaults and the
 * keys `kinds` pull, each in its policy form (`policyValueOf`); values a policy cannot state are left out.
 */
function pulledTuning(records: PulledBranchRecords, parent: string | undefined, kinds: readonly KindPull[]): BranchTuning {
  const { branch, project } = records;
  const tuning: BranchTuning = {};
  if (parent !== undefined) tuning.parent = parent;
  Object.assign(tuning, pulledBranchSettings(branch));
  const computeSettings = pulledComputeSettings(records.endpoints, project);
  if (computeSettings !== undefined) tuning.postgres = { computeSettings };
  for (const pull of kinds) Object.assign(tuning, pull(records));
  return tuning;
}

function pulledCredential(credential: ApiCredential): PulledCredential {
  return {
    tokenId: credential.token_id,
    ...(credential.name === undefined ? {} : { name: credential.name }),
    scopes: [...credential.scopes],
    createdAt: normalizeTimestamp(credential.created_at),
    ...(credential.expires_at === undefined ? {} : { expiresAt: normalizeTimestamp(credential.expires_at) }),
  };
}
