/**
 * Wire shapes of the schema reads (these follow the platform's
 * published API): a branch database's schema, the difference between two branches' schemas, and
 * the fields logs can be queried by. The client calls `compare_schema` (`svc branch diff`).
 */
import { z } from "zod";
import { TimestampSchema } from "./common.js";
import { LsnSchema } from "./snapshots.js";

/** `GET …/branches/{b}/schema` query. */
export const BranchSchemaQuerySchema = z.object({
  db_name: z.string().min(1),
  lsn: LsnSchema.optional(),
  timestamp: TimestampSchema.optional(),
  format: z.enum(["sql", "json"]).optional(),
});
/** `GET …/branches/{b}/schema` query. */
export type BranchSchemaQuery = z.infer<typeof BranchSchemaQuerySchema>;

/** `GET …/branches/{b}/compare_schema` query: the branch against `base_branch_id` (default: its parent). */
export const CompareSchemaQuerySchema = z.object({
  db_name: z.string().min(1),
  base_branch_id: z.string().min(1).optional(),
  lsn: LsnSchema.optional(),
  timestamp: TimestampSchema.optional(),
  base_lsn: LsnSchema.optional(),
  base_timestamp: TimestampSchema.optional(),
});
/** `GET …/branches/{b}/compare_schema` query. */
export type CompareSchemaQuery = z.infer<typeof CompareSchemaQuerySchema>;

/** A column of a table in the JSON form of a schema. */
export const SchemaColumnSchema = z.looseObject({ name: z.string(), type: z.string(), nullable: z.boolean(), default: z.string().optional() });

/** A table in the JSON form of a schema. */
export const SchemaTableSchema = z.looseObject({ schema: z.string(), name: z.string(), columns: z.array(SchemaColumnSchema) });

/** `GET …/schema` response: `sql` (DDL text) or, with `format=json`, `json`. */
export const BranchSchemaResponseSchema = z.looseObject({
  sql: z.string().optional(),
  json: z.looseObject({ tables: z.array(SchemaTableSchema) }).optional(),
});
/** `GET …/schema` response. */
export type BranchSchemaResponse = z.infer<typeof BranchSchemaResponseSchema>;

/** `GET …/compare_schema` response: a unified diff from the base to the branch (`""` when equal). */
export const CompareSchemaResponseSchema = z.looseObject({ diff: z.string() });

