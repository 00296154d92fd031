/** The role's create request on the wire: its fields from the role kind's descriptor. */
import { z } from "zod";
import { PgNameSchema } from "../../api/wire/common.js";
import { wireFieldsSchema } from "../../api/wire/fields.js";
import { ROLE_FIELDS } from "./fields.js";

/** `POST …/roles` body. */
export const RoleCreateRequestSchema = z.object({ role: z.object({ name: PgNameSchema, ...wireFieldsSchema(ROLE_FIELDS).shape }) });
/** `POST …/roles` body. */
export type RoleCreateRequest = z.infer<typeof RoleCreateRequestSchema>;
