/**
 * The emulator's in-memory records. They hold what the wire shapes are built from; the store
 * knows nothing about HTTP. Timestamps are epoch milliseconds (the clock's unit).
 */
import type { AuthWebhook, EmailAndPassword, MagicLinkPlugin, OrganizationPlugin, PhoneNumberPlugin } from "../../api/wire/index.js";

/** A user account (owner of personal projects and keys). */
export interface UserRec {
  id: string;
  email: string;
  name: string;
  plan: PlanName;
  createdAt: number;
}

/** An organization account. */
export interface OrgRec {
  id: string;
  name: string;
  plan: PlanName;
  platformFeatures: boolean;
  /** user id -> organization role. */
  members: Map<string, "admin" | "member">;
  /** Whether projects take explicit per-member roles (members rule 1). */
  projectRoleManagement: boolean;
  /** The project role organization members get without an explicit grant (null = none). */
  memberDefaultProjectRole: ProjectRole | null;
  createdAt: number;
}

/** A project-level role. */
export type ProjectRole = "VIEWER" | "EDITOR" | "ADMIN";

/** A project permission: access granted to an email address. */
export interface PermissionRec {
  id: string;
  email: string;
  grantedAt: number;
  revokedAt?: number;
}

/** A seeded advisor issue of one branch and database. */
export interface AdvisorIssueRec {
  id: string;
  branchId: string;
  database: string;
  title: string;
  severity: "INFO" | "WARN" | "ERROR";
  category: string;
  description: string;
  remediation?: string;
  metadata?: Record<string, unknown>;
}

/** Plan names. */
export type PlanName = "free" | "launch" | "scale";

/** An API key; only the SHA-256 of the token is stored. */
export interface ApiKeyRec {
  id: number;
  name: string;
  /** Hex SHA-256 of the token. */
  hash: string;
  kind: "personal" | "org";
  /** User id (personal) or organization id (org). */
  accountId: string;
  /** The user who created the key. */
  createdBy: string;
  /** Organization keys may be limited to one project. */
  projectId?: string;
  /** Admin keys may use `/__emulator/*`. */
  admin: boolean;
  createdAt: number;
  lastUsedAt?: number;
  lastUsedFrom?: string;
  revoked: boolean;
}

/** The caller a request acts for, resolved from its key. */
export interface Principal {
  key: ApiKeyRec;
  /** The user behind a personal key (or the creator of an organization key). */
  userId: string;
  /** The organization of an organization key. */
  orgId?: string;
}

/** An operation with its precomputed deadlines. */
export interface OperationRec {
  id: string;
  /** Creation order across the emulator (orders operations created in the same millisecond). */
  seq: number;
  projectId: string;
  branchId?: string;
  endpointId?: string;
  action: string;
  status: string;
  error?: string;
  failuresCount: number;
  createdAt: number;
  updatedAt: number;
  /** When it becomes `running`. */
  startAt: number;
  /** When it ends. */
  finishAt: number;
  /** Ends `failed` (fault rule `opfail`). */
  willFail: boolean;
  /** Ends `skipped` (start on an active endpoint, suspend on an idle one). */
  willSkip: boolean;
  totalDurationMs: number;
}

/** Where a project's databases really live on the local PostgreSQL (direct and pooled ports). */
export interface LocalPostgresRec {
  directHost: string;
  directPort: number;
  pooledPort: number;
  /** `sslmode` of the URIs, or null for none. */
  sslmode: string | null;
  /** The socket-directory hosts the claimable connection strings use; URIs use them when present (absent in older state). */
  hosts?: { direct: string; pooled: string };
}

/** A project. */
export interface ProjectRec {
  id: string;
  name: string;
  regionId: string;
  pgVersion: number;
  /** Owning user id, or organization id when `orgId` is set. */
  ownerId: string;
  orgId?: string;
  /** Set for a claimed claimable database: its URIs point at the local PostgreSQL. */
  localPostgres?: LocalPostgresRec;
  provisioner: string;
  storePasswords: boolean;
  historyRetentionSeconds: number;
  settings: Record<string, unknown>;
  defaultEndpointSettings: { pg_settings?: Record<string, string>; autoscaling_limit_min_cu?: number; autoscaling_limit_max_cu?: number; suspend_timeout_seconds?: number };
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
  /** Deleted projects are purged at this time (deleted_at + 7 days). */
  recoverableUntil?: number;
  /** Access granted by email (the grantees get EDITOR). */
  permissions: PermissionRec[];
  /** Explicit project roles of organization members: user id -> role. */
  memberRoles: Map<string, ProjectRole>;
  advisorIssues: AdvisorIssueRec[];
  branches: Map<string, BranchRec>;
  /** Snapshots by id. */
  snapshots: Map<string, SnapshotRec>;
  endpoints: Map<string, EndpointRec>;
  /** Oldest first. */
  operations: OperationRec[];
  /** Operations still scheduling or running. */
  inFlight: Set<string>;
}

/** A branch and everything that lives on it. */
export interface BranchRec {
  id: string;
  projectId: string;
  name: string;
  parentId?: string;
  /** The point of the parent's history the branch starts from: as given at creation, else the creation time. */
  parentTimestamp?: number;
  /** The parent's LSN the branch starts from: as given at creation, else one derived from the creation time. */
  parentLsn?: string;
  isDefault: boolean;
  protected: boolean;
  currentState: string;
  stateChangedAt: number;
  initSource: string;
  expiresAt?: number;
  createdAt: number;
  updatedAt: number;
  annotation: Record<string, string>;
  roles: Map<string, RoleRec>;
  databases: Map<string, DatabaseRec>;
  buckets: Map<string, BucketRec>;
  functions: Map<string, FunctionRec>;
  triggers: Map<string, TriggerRec>;
  credentials: Map<string, CredentialRec>;
  dataApi: Map<string, DataApiRec>;
  auth?: AuthRec;
  /** The backup schedule set with `PUT …/backup_schedule` (absent = none). */
  backupSchedule?: BackupScheduleEntry[];
  /** When the branch was last restored (`last_reset_at`). */
  lastResetAt?: number;
  /** Set on a branch restored from a snapshot until `finalize_restore` moves the target's computes to it. */
  pendingRestore?: { snapshotId: string; targetBranchId: string };
}

/** One entry of a backup schedule (wire names, as validated). */
export interface BackupScheduleEntry {
  frequency: "hourly" | "daily" | "weekly" | "monthly";
  hour?: number;
  day?: number;
  month?: number;
  /** Absent: backups are kept until deleted. */
  retention_seconds?: number;
}

/** The database records a snapshot keeps: roles (with passwords) and databases, detached copies. */
export interface DatabaseContent {
  roles: Map<string, RoleRec>;
  databases: Map<string, DatabaseRec>;
}

/** A snapshot of a branch's databases. */
export interface SnapshotRec {
  id: string;
  name: string;
  sourceBranchId: string;
  lsn: string;
  /** The point of the branch's history it captures. */
  timestamp: number;
  createdAt: number;
  expiresAt?: number;
  content: DatabaseContent;
}

/** A compute endpoint. */
export interface EndpointRec {
  id: string;
  projectId: string;
  branchId: string;
  name?: string;
  type: "read_write" | "read_only";
  currentState: "init" | "active" | "idle";
  pendingState?: "active" | "idle";
  minCu: number;
  maxCu: number;
  suspendTimeoutSeconds: number;
  settings: Record<string, unknown>;
  provisioner: string;
  poolerEnabled: boolean;
  poolerMode: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  suspendedAt?: number;
}

/** A Postgres role on a branch. */
export interface RoleRec {
  name: string;
  password: string;
  noLogin: boolean;
  protected: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A database on a branch. */
export interface DatabaseRec {
  id: number;
  name: string;
  ownerName: string;
  createdAt: number;
  updatedAt: number;
}

/** A bucket with its objects. */
export interface BucketRec {
  name: string;
  accessLevel: string;
  createdAt: number;
  inherited: boolean;
  objects: Map<string, ObjectRec>;
}

/** A stored object; its body is a content-addressed blob (none for seeded objects: zero bytes of `size`). */
export interface ObjectRec {
  key: string;
  size: number;
  etag: string;
  lastModified: number;
  /** SHA-256 of the body in the blob store. */
  blob?: string;
  contentType?: string;
}

/** A function and its deployments. */
export interface FunctionRec {
  id: string;
  slug: string;
  name: string;
  createdAt: number;
  /** Copied from the parent branch and never deployed here. */
  inherited: boolean;
  /** Oldest first; ids increase from 1. */
  deployments: DeploymentRec[];
}

/** A function deployment. */
export interface DeploymentRec {
  id: number;
  status: "pending" | "building" | "completed" | "failed";
  runtime: string;
  memoryMib: number;
  createdAt: number;
  /** Name -> value (values never leave the emulator except in the secret state document). */
  environment: Map<string, string>;
  /** SHA-256 of the stored archive. */
  zipSha256: string;
  /** The build outcome decided at upload: `null` = completes. */
  buildError: string | null;
  buildingAt: number;
  finishAt: number;
  error?: string;
}

/** A trigger. */
export interface TriggerRec {
  id: string;
  type: "schedule" | "storage_object_created";
  functionSlug: string;
  name: string;
  functionPath: string;
  enabled: boolean;
  version: number;
  inherited: boolean;
  cron?: string;
  bucketName?: string;
  prefix?: string;
}

/** A registered custom domain (one registry for the whole emulator). */
export interface DomainRec {
  domain: string;
  accountId: string;
  projectId: string;
  branchId: string;
  entityType: "function";
  entityId: string;
  cnameTarget: string;
  activeAt: number;
  createdAt: number;
}

/** A branch-scoped credential. */
export interface CredentialRec {
  tokenId: string;
  name?: string;
  scopes: string[];
  principalType: string;
  apiToken: string;
  s3SecretAccessKey: string;
  createdAt: number;
  expiresAt?: number;
  revokedAt?: number;
}

/** The data API on one database. */
export interface DataApiRec {
  database: string;
  settings: Record<string, unknown> | null;
  authProvider?: string;
  createdAt: number;
}

/** Branch-level auth. */
export interface AuthRec {
  provider: string;
  providerProjectId: string;
  databaseName: string;
  createdAt: number;
  secretServerKey: string;
  pubClientKey: string;
  oauthProviders: Map<string, { id: string; type: string; clientId?: string; clientSecret?: string; microsoftTenantId?: string }>;
  domains: { domain: string; authProvider: string }[];
  ownedBy: "user" | "neon_managed";
  transferStatus?: "initiated" | "finished";
  users: Map<string, { id: string; email: string; name?: string; roles?: string[] }>;
  emailServer: { host?: string; port?: number; username?: string; password?: string; sender_email?: string; sender_name?: string };
  /** Sign-in, plugin and webhook settings; absent until first read or written (the defaults). */
  settings?: AuthSettingsRec;
}

/** The settings of an auth integration, in wire form. */
export interface AuthSettingsRec {
  emailAndPassword: EmailAndPassword;
  allowLocalhost: boolean;
  webhook: AuthWebhook;
  organization: OrganizationPlugin;
  magicLink: MagicLinkPlugin;
  phoneNumber: PhoneNumberPlugin;
}
