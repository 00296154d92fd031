/** Project access: permissions, members and their roles, advisors. */
import { z } from "zod";
import { QueryBooleanSchema, TimestampSchema, queryIntegerSchema } from "./common.js";

/** A project-level role. */
export const ProjectRoleSchema = z.enum(["VIEWER", "EDITOR", "ADMIN"]);

/** `POST …/permissions` body: the email address to grant. */
export const PermissionCreateRequestSchema = z.object({ email: z.email() });

/** A project permission. */
export const ProjectPermissionSchema = z.looseObject({
  id: z.string(),
  granted_to_email: z.string(),
  granted_at: TimestampSchema,
  revoked_at: TimestampSchema.optional(),
});
/** A project permission. */
export type ProjectPermission = z.infer<typeof ProjectPermissionSchema>;

/** `GET …/permissions` response. */
export const ProjectPermissionListResponseSchema = z.looseObject({ project_permissions: z.array(ProjectPermissionSchema) });

/** `GET …/members` query. */
export const MemberListQuerySchema = z.object({ cursor: z.string().optional(), limit: queryIntegerSchema(1, 500).optional() });

/** `PUT …/members/{member_id}/role` body. */
export const MemberRoleRequestSchema = z.object({ role: ProjectRoleSchema });

/** `PUT …/members/{member_id}/role` query. */
export const MemberRolePutQuerySchema = z.object({ confirm_self_demotion: QueryBooleanSchema.optional() });

/** `DELETE …/members/{member_id}/role` query. */
export const MemberRoleDeleteQuerySchema = z.object({ confirm_self_lockout: QueryBooleanSchema.optional() });

/** A project member (emulator's shape; the seed does not publish one). */
export const MemberSchema = z.looseObject({
  member_id: z.string(),
  email: z.string(),
  name: z.string().optional(),
  org_role: z.string().optional(),
  explicit_role: ProjectRoleSchema.nullable().optional(),
  effective_role: ProjectRoleSchema.nullable().optional(),
});
/** A project member. */
export type Member = z.infer<typeof MemberSchema>;

/** `GET …/members` response. */
export const MemberListResponseSchema = z.looseObject({
  members: z.array(MemberSchema),
  pagination: z.looseObject({ cursor: z.string().optional(), next: z.string().optional() }).optional(),
});

/** `PUT` / `DELETE …/members/{member_id}/role` response. */
export const MemberRoleResponseSchema = z.looseObject({ member: MemberSchema });

/** Advisor severities, lowest first. */
export const AdvisorSeveritySchema = z.enum(["INFO", "WARN", "ERROR"]);

/** `GET …/advisors` query. */
export const AdvisorQuerySchema = z.object({
  branch_id: z.string().optional(),
  database_name: z.string().optional(),
  category: z.string().optional(),
  min_severity: AdvisorSeveritySchema.optional(),
});

/** An advisor issue (emulator's shape). */
export const AdvisorIssueSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  severity: z.string(),
  category: z.string(),
  description: z.string().optional(),
  remediation: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** `GET …/advisors` response. */
export const AdvisorListResponseSchema = z.looseObject({ issues: z.array(AdvisorIssueSchema) });
