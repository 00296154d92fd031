/**
 * Schema of `prune`, from the kinds' flags: `true` sets every flag but the explicit-only ones
 * (e.g. `roles`, `databases`: deleting a database loses its data, so those are only ever named);
 * `false` clears the same flags.
 */
import * as z from "zod";
import { booleanOrObject, strictObject } from "./common.js";
import type { PruneFlag } from "./kind-policy.js";

/** `prune`: `boolean | PruneDef`, with `flags` in order. */
export function pruneSchemaOf(flags: readonly PruneFlag[]) {
  const implied = flags.filter((flag) => flag.explicitOnly !== true);
  const all = (on: boolean) => () => Object.fromEntries(implied.map((flag) => [flag.flag, on]));
  return booleanOrObject(
    all(true),
    all(false),
    strictObject(
      Object.fromEntries(flags.map((flag) => [flag.flag, z.boolean().optional()])),
      `true, false or { ${flags.map((flag) => `${flag.flag}?`).join(", ")} }`,
    ),
  );
}
