/** Wire shapes of operation reads. */
import { z } from "zod";
import { CursorPaginationSchema, OperationSchema, queryIntegerSchema } from "./common.js";

/** `GET …/operations` query: `cursor`, `limit` 1–1000. */
export const OperationListQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: queryIntegerSchema(1, 1000).optional(),
});
/** `GET …/operations` query. */
export type OperationListQuery = z.infer<typeof OperationListQuerySchema>;

/** `GET …/operations` response, newest first. */
export const OperationListResponseSchema = z.looseObject({
  operations: z.array(OperationSchema),
  pagination: CursorPaginationSchema.optional(),
});
/** `GET …/operations` response. */
export type OperationListResponse = z.infer<typeof OperationListResponseSchema>;

/** `GET …/operations/{id}` response. */
export const OperationResponseSchema = z.looseObject({ operation: OperationSchema });
/** `GET …/operations/{id}` response. */
export type OperationResponse = z.infer<typeof OperationResponseSchema>;
