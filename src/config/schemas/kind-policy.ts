/**
 * A kind's part of the policy's static part (every top-level key but the branch closure's result):
 * its top-level keys with their schemas, their deprecated homes under `preview`, its flag of
 * `prune`, and its fields of the resolved policy. `policyKindsOf` assembles the parts of a list of
 * kinds (the registry's, in `kinds/list.ts`) into the strict schema of the policy.
 */
import type * as z from "zod";
import type { ConfigIssue } from "../../errors/index.js";

/** A kind's flag of `prune` (`prune.<flag>`). */
export interface PruneFlag {
  /** The flag's name, e.g. `buckets`. */
  readonly flag: string;
  /** Its place among `prune`'s flags (ascending): the order of the schema, of its message and of the resolved flags. */
  readonly order: number;
  /**
   * `prune: true` leaves it off and `prune: false` leaves it unstated: only setting it by name
   * deletes (its undeclared items hold data, e.g. a database).
   */
  readonly explicitOnly?: true;
}

/** A kind's part of the static policy; every member is optional (a kind may have only a prune flag). */
export interface KindPolicy {
  /**
   * Its top-level keys (e.g. `buckets`), in order, each with its schema; an omitted key is not
   * validated. Keys of the same kind sit together in the policy.
   */
  readonly keys?: Readonly<Record<string, z.ZodType>>;
  /**
   * Where its keys sit among the kinds' top-level keys (ascending; `prune`, `hooks`, `branch` and
   * `preview` come after them): the schema's order, which a pulled `svc.ts` writes its keys in.
   */
  readonly order?: number;
  /**
   * Its keys that also have a deprecated home `preview.<key>` (validated by the key's schema;
   * stating both is refused), each with its place among `preview`'s keys (ascending).
   */
  readonly preview?: Readonly<Record<string, number>>;
  /** Its flag of `prune`. */
  readonly prune?: PruneFlag;
  /**
   * Its fields of the resolved policy from its keys' validated values (a key with a deprecated
   * home is read from the home when the top-level key is absent); `{}` when it has none.
   */
  resolve?(values: Readonly<Record<string, unknown>>): object;
  /**
   * Issues of the validated static policy its schemas cannot see (a relative source without a base
   * directory to resolve it against), reported before the branch closure runs; none when valid.
   */
  check?(policy: Readonly<Record<string, unknown>>, context: { readonly baseDir: string | null }): ConfigIssue[];
  /**
   * Its rules across sections, on the raw policy before validation (read defensively, so they are
   * reported even when other sections are invalid), e.g. a trigger naming an undeclared function.
   */
  crossChecks?(policy: Readonly<Record<string, unknown>>): ConfigIssue[];
}

/** The validated values of `keys`, each absent when the policy omits it. */
export type PolicyValues<S extends Readonly<Record<string, z.ZodType>>> = { readonly [P in keyof S]?: z.output<S[P]> };

/** A kind's static policy whose `resolve` reads its keys' values typed by their schemas (already validated). */
export function kindPolicy<S extends Readonly<Record<string, z.ZodType>>, const T extends Omit<KindPolicy, "keys" | "resolve">>(
  stage: T & { readonly keys: S; resolve(values: PolicyValues<S>): object },
): T & { readonly keys: S; resolve(values: Readonly<Record<string, unknown>>): object } {
  return { ...stage, resolve: (values: Readonly<Record<string, unknown>>) => stage.resolve(values as PolicyValues<S>) };
}
