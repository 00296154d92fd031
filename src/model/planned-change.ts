/**
 * A change of the plan with what the executor needs to carry it out: produced by `diff/`, run by
 * `apply/`. Plain, secret-free data.
 */
import type { KindFacts, ResourceKind } from "../kinds/index.js";
import type { Change } from "./plan.js";

/** The deployment fingerprint of one declared function. Never shown in plans. */
export interface FunctionTag {
  /** SHA-256 (hex) of the canonical ZIP. */
  zipSha256: string;
  /** First 20 hex of HMAC-SHA256 over the archive digest. */
  codeTag: string;
  /**
   * `EK…` (keyed) or `EH…` (hardened): a MAC over the deployed env, apart from the archive. Absent
   * (hardened mode) when nothing live could be compared with it (function absent, failed, unmarked,
   * or marked by an older version for other code): apply derives it.
   */
  envTag?: string;
  /** Keyed mode: each deployed variable's short tag (`diff/fingerprint-markers.ts`), by name. */
  varTags?: Readonly<Record<string, string>>;
  /** The config tag an older version would have written for this state (`K…`/`H…`), to read its markers. */
  legacyConfigTag?: string;
  /** The marker names a deployment writes (the main one first); absent with `envTag`. */
  markers?: string[];
}

/**
 * The operations of kind `K`, as its facts declare them (`operations`, a type of its `fields.ts`):
 * per operation, what the executor needs besides the change (`op`: ids, markers, …) and the values
 * the change plans (`planned`: typed by the kind's descriptor; the change's `after` shows them, the
 * handler sends them). Each operation belongs to one kind.
 */
type KindOperations<K extends ResourceKind> = KindFacts[K]["operations"];

/** The names of the operations of kind `K` (of each kind of a union). */
type OperationName<K extends ResourceKind> = { [J in K]: keyof KindOperations<J> & string }[K];

/** The name of an executor operation (`bucket-create`, `data-api-update`, …). */
export type OpType = OperationName<ResourceKind>;

/** The operations of kind `K` by name (`data-api-update` for `dataApi`). */
export type OpTypeOf<K extends ResourceKind> = OperationName<K> & OpType;

/** What the kind declaring operation `T` says of it. */
type Operation<T extends OpType> = { [K in ResourceKind]: T extends OpTypeOf<K> ? KindOperations<K>[T] : never }[ResourceKind];

/** The operation named `T`: what its handler needs besides the change and its planned values. Plain, secret-free data. */
export type OpOf<T extends OpType> = { type: T } & Operation<T>["op"];

/** What the executor does for a change: plain, secret-free data (env values come from the policy). */
export type ChangeOp = { [T in OpType]: OpOf<T> }[OpType];

/** The values a change of operation `T` plans, in model vocabulary: what its handler sends. */
export type PlannedOf<T extends OpType> = Operation<T>["planned"];

/**
 * Per operation, the planned values its saved-plan digest commits to beside the change and the
 * operation, as the operation's own fields (the form saved plans have always hashed; absent: none).
 */
export type DigestViews = { readonly [T in OpType]?: (planned: PlannedOf<T>) => object };

/** A change of operation `T` together with its operation and its typed planned values. */
export type OperationChange<T extends OpType = OpType> = { [U in T]: { change: Change; op: OpOf<U>; planned: PlannedOf<U> } }[T];

/** A change of kind `K` (of any kind by default) together with what the executor needs to carry it out. */
export type PlannedChange<K extends ResourceKind = ResourceKind> = OperationChange<OpTypeOf<K>>;
