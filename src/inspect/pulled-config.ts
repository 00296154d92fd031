/**
 * The live branch as a policy (`PulledBranchConfig`). Pure: builds the result from records
 * already read, with what each kind's pull stage adds (`KindPull`).
 */
import type { ApiCredential } from "../api/wire-types.js";
import type { PolicyKinds } from "../config/policy-kinds.js";
import { readStaticPolicy } from "../config/validate-static.js";
import type { BranchTuning, PolicyConfig, PruneDef } from "../config/policy-types.js";
import type { KindPreviews } from "../kinds/index.js";
import type { KindPull, PulledBranchRecords } from "./kind-pull.js";
import { compareCodePoints, normalizeTimestamp } from "./normalize.js";
import { inPolicyOrder } from "./policy-order.js";

export type { KindPull, PulledBranchRecords } from "./kind-pull.js";

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
   * hostnames may only name declared functions), each kind's lists and the branch's credentials;
   * omitted when every list is empty.
   */
  preview?: KindPreviews & { credentials: PulledCredential[] };
}

/**
 * Builds the pulled config from what `kinds` pull (in rank order); the policy is validated, as
 * `defineConfig` does, with the static parts of `policyKinds`, in whose key order it is written.
 */
export function buildPulledBranchConfig(records: PulledBranchRecords, kinds: readonly KindPull[], policyKinds: PolicyKinds): PulledBranchConfig {
  const { project, branch } = records;
  const parent = branch.parent_id === undefined ? undefined : records.branches.find((b) => b.id === branch.parent_id)?.name;
  const policy: PolicyConfig = {};
  for (const kind of kinds) Object.assign(policy, kind.policy?.(records));
  const tuning = pulledTuning(records, parent, kinds);
  // The tuning belongs to the kind of branch it was pulled from: a preview created from a pulled
  // default branch's file is not protected just because the default branch is.
  policy.branch = (t) => ((t.isDefault === true) === branch.default ? structuredClone(tuning) : {});
  const prune = pulledPrune(records, kinds);
  if (prune !== undefined) policy.prune = prune;

  const lists: Record<string, readonly unknown[]> = {};
  for (const kind of kinds) Object.assign(lists, kind.preview?.(records));
  const credentials = records.credentials
    .filter((c) => c.revoked_at === undefined)
    .map(pulledCredential)
    .sort((a, b) => compareCodePoints(a.tokenId, b.tokenId));
  const hasPreview = credentials.length > 0 || Object.values(lists).some((list) => list.length > 0);

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
    config: readStaticPolicy(policyKinds, inPolicyOrder(policy, policyKinds.keyOrder)).config,
    // Each kind with a `preview` stage gives all of its lists (the facts' `KindPreviews`).
    ...(hasPreview ? { preview: { ...(lists as KindPreviews), credentials } } : {}),
  };
}

/** The parent's name and the keys `kinds` pull, each in its policy form; values a policy cannot state are left out. */
function pulledTuning(records: PulledBranchRecords, parent: string | undefined, kinds: readonly KindPull[]): BranchTuning {
  const tuning: BranchTuning = {};
  if (parent !== undefined) tuning.parent = parent;
  for (const kind of kinds) Object.assign(tuning, kind.tuning?.(records));
  return tuning;
}

/** Every kind's `prune` key, `false`, when a kind with one has live items (nothing is deleted); else none. */
function pulledPrune(records: PulledBranchRecords, kinds: readonly KindPull[]): PruneDef | undefined {
  const pruned = kinds.flatMap((kind) => (kind.prune === undefined ? [] : [kind.prune]));
  if (!pruned.some((p) => p.live(records) > 0)) return undefined;
  return Object.fromEntries(pruned.map((p) => [p.key, false]));
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
