/** Status of a claimable database. */
export type ClaimStatus = "UNCLAIMED" | "CLAIMING" | "CLAIMED";

/** Who takes over a claimed database: the personal account or an organization id. */
export type ClaimOwner = { readonly kind: "personal" } | { readonly kind: "organization"; readonly orgId: string };

/** The emulator's stored form of a claimable database (times in epoch ms). */
export interface ClaimableRecord {
  readonly id: string;
  status: ClaimStatus;
  readonly svcProjectId: string;
  /** Name of the database and of its role. */
  readonly physicalName: string;
  /** The role's password (never logged). */
  readonly password: string;
  readonly logicalReplication: boolean;
  readonly ref: string;
  readonly createdAt: number;
  updatedAt: number;
  /** Null once claimed. */
  expiresAt: number | null;
  readOnly: boolean;
  readOnlyReason: string | null;
  /** Owner organization after a claim to an organization. */
  orgId: string | null;
  /** While CLAIMING: when the transfer completes, who takes it and under which project name. */
  transfer: { readonly completesAt: number; readonly owner: ClaimOwner; readonly projectName: string; readonly principalId: string } | null;
  /** The last failed transfer's message, shown on the claim page. */
  transferError: string | null;
}

/** Connection strings of a record while unclaimed. */
export interface RecordUrls {
  readonly direct: string;
  readonly pooled: string;
}

/** The record as `/api/v1` sends it. */
export interface ClaimableWireRecord {
  id: string;
  status: ClaimStatus;
  svc_project_id: string;
  connection_string: string | null;
  claim_url: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  emulator: {
    direct_connection_string: string | null;
    database_name: string;
    role_name: string;
    logical_replication: boolean;
    read_only: boolean;
    read_only_reason: string | null;
    ref: string;
    org_id: string | null;
  };
}

/** Shapes a record for the wire; connection strings are null once claimed. */
export function toWireRecord(record: ClaimableRecord, origin: string, urls: RecordUrls | null): ClaimableWireRecord {
  const claimed = record.status === "CLAIMED";
  return {
    id: record.id,
    status: record.status,
    svc_project_id: record.svcProjectId,
    connection_string: claimed ? null : (urls?.pooled ?? null),
    claim_url: `${origin}/claim/${record.id}`,
    expires_at: record.expiresAt === null ? null : new Date(record.expiresAt).toISOString(),
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
    emulator: {
      direct_connection_string: claimed ? null : (urls?.direct ?? null),
      database_name: record.physicalName,
      role_name: record.physicalName,
      logical_replication: record.logicalReplication,
      read_only: record.readOnly,
      read_only_reason: record.readOnlyReason,
      ref: record.ref,
      org_id: record.orgId,
    },
  };
}
