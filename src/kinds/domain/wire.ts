/** Wire shapes of custom domains. */
import { z } from "zod";
import { NextPaginationSchema, queryIntegerSchema } from "../../api/wire/common.js";

/** `POST …/custom-domains` body (all required); host-name rules are checked by the shared hostname rule. */
export const CustomDomainCreateRequestSchema = z.object({
  domain: z.string().min(1).max(254),
  entity_type: z.string().min(1),
  entity_id: z.string().min(1),
});
/** `POST …/custom-domains` body. */
export type CustomDomainCreateRequest = z.infer<typeof CustomDomainCreateRequestSchema>;

/** `GET …/custom-domains` query. */
export const CustomDomainListQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: queryIntegerSchema(1, 1000).optional(),
});

/** The custom-domain record (statuses are not formal enums). */
export const CustomDomainSchema = z.looseObject({
  domain: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  cname_target: z.string().optional(),
  status: z.string().optional(),
  dns_status: z.string().optional(),
  binding_status: z.string().optional(),
  status_reason: z.string().optional(),
});
/** The custom-domain record. */
export type CustomDomain = z.infer<typeof CustomDomainSchema>;

/** `GET …/custom-domains` response. */
export const CustomDomainListResponseSchema = z.looseObject({
  custom_domains: z.array(CustomDomainSchema),
  pagination: NextPaginationSchema.optional(),
});
/** `GET …/custom-domains` response. */
export type CustomDomainListResponse = z.infer<typeof CustomDomainListResponseSchema>;

/** The records of the live state's hostnames registered to functions (what a replica of the branch is seeded with). */
export function domainRecordsOf(domains: readonly { domain: string; entityType: string; entityId: string }[]): { domain: string; function_slug: string }[] {
  return domains.filter((d) => d.entityType === "function").map((d) => ({ domain: d.domain, function_slug: d.entityId }));
}
