/**
 * Schema of `prune`: `true` sets every field but `roles` and `databases` (deleting
 * a database loses its data, so those two are only ever named explicitly); `false` clears all.
 */
import * as z from "zod";
import { booleanOrObject, strictObject } from "./common.js";

const all = (on: boolean) => () => ({ functions: on, triggers: on, customDomains: on, buckets: on });

/** `prune`: `boolean | PruneDef`. */
export const pruneSchema = booleanOrObject(
  all(true),
  all(false),
  strictObject(
    {
      functions: z.boolean().optional(),
      triggers: z.boolean().optional(),
      customDomains: z.boolean().optional(),
      buckets: z.boolean().optional(),
      roles: z.boolean().optional(),
      databases: z.boolean().optional(),
    },
    "true, false or { functions?, triggers?, customDomains?, buckets?, roles?, databases? }",
  ),
);
