import type { ResourceKind } from "../kinds/index.js";
import type { CheckResult } from "./check-result.js";
import type { Json } from "./json.js";

/** What a change does to its resource. A `replace` counts as one delete and one create. */
export type ChangeAction = "create" | "update" | "delete" | "replace";

/**
 * Who a change can hurt. `additive` creates or updates what the policy names; `override`
 * changes an existing branch-level setting, deletes something or moves a hostname; `destructive`
 * deletes stored data. Override and destructive changes need `updateExisting` or confirmation.
 */
export type ChangeClass = "additive" | "override" | "destructive";

/** The resource kinds a plan talks about: the names of the kind registry. */
export type { ResourceKind };

/** One planned change: plain data, secret-free, ordered by `dependsOn`. */
export interface Change {
  /** `${action}:${address}`, unique and stable, e.g. `update:compute`. */
  id: string;
  /** `branch`, `compute`, `auth`, `dataApi`, `bucket.<n>`, `function.<slug>`, `trigger.<n>`, `domain.<host>`. */
  address: string;
  kind: ResourceKind;
  action: ChangeAction;
  class: ChangeClass;
  /** Changed fields in policy vocabulary; `["*"]` for create and delete. */
  fields: string[];
  /** Compared fields before the change; `null` on create. */
  before: Json | null;
  /** Compared fields after the change; `null` on delete; secrets read `"[redacted]"`. */
  after: Json | null;
  /** Why the change is planned, for people; never parsed. */
  reason: string;
  /** Ids of the changes that must succeed first. */
  dependsOn: string[];
}

/** A conflict between the policy and the live branch (the documented fields plus ours). */
export interface ConflictReport {
  kind: ResourceKind;
  identifier: string;
  field: string;
  current: Json | null;
  desired: Json | null;
  /** Human-readable: what is wrong and how to resolve it. */
  reason: string;
  /** A blocking conflict cannot be resolved by any option. */
  blocking: boolean;
  /** Stable code, e.g. `BUCKET_ACCESS_IMMUTABLE`, `OVERRIDE_NOT_CONFIRMED`. */
  code: string;
  changeId?: string;
}

/** A remote item the policy does not manage: information, never a change. */
export interface UnmanagedEntry {
  address: string;
  kind: ResourceKind | "env";
  identifier: string;
  reason: string;
  inherited?: boolean;
}

/** A warning attached to an operation's result. */
export interface EngineWarning {
  code: string;
  message: string;
  address?: string;
}

/** A change as applied (or planned, on a dry run), identifying the resource and field. */
export interface AppliedChange extends Pick<Change, "id" | "address" | "kind" | "action" | "class" | "fields"> {
  /** Branch name for branch, compute, auth and dataApi; else bucket name, slug, trigger name or hostname. */
  identifier: string;
  /** The first of `fields`. */
  field: string;
  status: "planned" | "applied";
  details?: AppliedChangeDetails;
}

/**
 * What applying a change reported, by kind: the operations a control-plane change waited for
 * (branch, compute, roles, databases), a function's deployment, the trigger id, a domain's CNAME
 * target. Each field is present only where it applies.
 */
export type AppliedChangeDetails = {
  /** Control-plane changes: the operations waited for. */
  operationIds?: string[];
  /** Functions: the deployment sent, whether it uploaded the archive, and the invocation URL. */
  deploymentId?: number;
  zipUploaded?: boolean;
  invocationUrl?: string;
  /** Triggers: the platform's id (null when a lost response left it unknown). */
  triggerId?: string | null;
  /** Domains: the CNAME target DNS must point at (`""` where the region has no front door), and the function a moved hostname left. */
  cnameTarget?: string;
  previousSlug?: string;
  /** Branches: the expiry set (`null` removed it); the id and parent name of a branch `createBranch` made. */
  expiresAt?: string | null;
  branchId?: string;
  parent?: string;
};

/** Counts of a plan; a replace counts in both `create` and `delete`. */
export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  conflicts: number;
}

/** The result of plan, apply, pushConfig and applyPlan: plain data, secret-free. */
export interface PushResult {
  projectId: string;
  orgId?: string;
  branchId: string;
  branchName: string;
  dryRun: boolean;
  applied: AppliedChange[];
  conflicts: ConflictReport[];
  customDomains?: { domain: string; slug: string; cnameTarget?: string }[];
  changes: Change[];
  failed: { change: AppliedChange; error: { code: string; message: string; details?: { [key: string]: Json } } }[];
  skipped: { change: AppliedChange; reason: string; blockedBy?: string }[];
  unmanaged: UnmanagedEntry[];
  warnings: EngineWarning[];
  summary: PlanSummary;
  /** `sha256:<hex>` of the compared projection of the live state. */
  stateFingerprint: string;
  bundles: Record<string, { zipSha256: string; zipBytes: number }>;
  /** Present when `targets` / `exclude` narrowed the plan: what remains outside it. */
  selection?: PlanSelection;
  /** Present when `verify` was asked for: the plan applied to a local replica, then re-planned. */
  verification?: PlanVerification;
  /** Present when checks were given: what each found, in the order they were given. */
  checks?: CheckResult[];
}

/**
 * A targeted plan's selection (`targets` / `exclude`): the plan's `changes` hold only the
 * selected changes; what the branch still needs beyond them is listed here.
 */
export interface PlanSelection {
  /** Address patterns given as `targets` (`*` matches any run of characters). */
  targets: string[];
  /** Address patterns given as `exclude`. */
  exclude: string[];
  /** Changes of the whole plan (selected + pending). */
  total: number;
  /** Changes outside the selection, in plan order: the branch still needs them. */
  pending: Change[];
  /** Conflicts about resources outside the selection: they do not block this apply. */
  pendingConflicts: ConflictReport[];
}

/**
 * The outcome of a verified plan (`verify: true`): the plan was applied to a local replica of
 * what it read (an in-process emulator), then planned again there.
 */
export interface PlanVerification {
  /** The replica's apply succeeded and the plan after it is empty. */
  verified: boolean;
  /** Changes a plan on the replica still shows after the apply: what the plan would leave undone. */
  residual: Change[];
  /** Why the replica's apply did not succeed: a failed or skipped change, a blocking conflict, a replica error. */
  failures: { changeId?: string; code: string; message: string }[];
  /**
   * Changes whose outcome depends on platform state a plan does not read, so the replica cannot
   * check it (a hostname may be registered elsewhere in the account), with why.
   */
  unchecked: { changeId: string; reason: string }[];
  /** Wall time of the verification (replica start, apply, re-plan), in ms. */
  ms: number;
}
