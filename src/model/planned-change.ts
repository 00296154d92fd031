/**
 * A change of the plan with what the executor needs to carry it out: produced by `diff/`, run by
 * `apply/`. Plain, secret-free data.
 */
import type { BranchValues } from "../kinds/branch/fields.js";
import type { ComputeValues } from "../kinds/compute/fields.js";
import type { ResourceKind } from "../kinds/index.js";
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

/** What the executor does for a change: plain, secret-free data (env values come from the policy). */
export type ChangeOp =
  /** The planned values are part of the internal digest of saved plans; the handler sends the change's `after`. */
  | ({ type: "branch-update" } & Partial<BranchValues>)
  /** The planned values are part of the internal digest of saved plans; the handler sends the change's `after`. */
  | ({ type: "compute-update"; endpointId: string } & Partial<ComputeValues>)
  /** `database` is part of the internal digest of saved plans; the handler sends the change's `after`. */
  | { type: "auth-create"; database: string }
  | { type: "data-api-create"; database: string }
  | {
      type: "data-api-update";
      database: string;
      /** The patch in wire names. Part of the internal digest of saved plans; the handler sends the change's `after`. */
      settings: Record<string, unknown>;
    }
  | { type: "data-api-delete"; database: string }
  | { type: "bucket-create"; name: string; access: string }
  | { type: "bucket-delete"; name: string }
  /** `login`, `owner`: part of the internal digest of saved plans; the handlers send the change's `after` (descriptor `toWire`). */
  | { type: "role-create"; name: string; login: boolean }
  | { type: "role-delete"; name: string }
  | { type: "database-create"; name: string; owner: string }
  | { type: "database-update"; name: string; owner: string }
  | { type: "database-delete"; name: string }
  | {
      type: "function-deploy";
      slug: string;
      /** Send a deployment at all (false: only the display name changes). */
      deploy: boolean;
      /** Upload the archive (false: runtime + env only, the archive is inherited). */
      withZip: boolean;
      /** Send the display-name PATCH after the build. */
      rename: boolean;
      /** The marker names to write (the main one first); absent when the plan deferred the env tag: the executor derives them before the upload. */
      markers?: string[];
      /** Markers on the live function other than `markers`: deleted in the same deployment. */
      staleMarkers: string[];
      /** Part of the internal digest of saved plans; never rendered. */
      envTag?: string;
      zipSha256: string;
    }
  | { type: "function-delete"; slug: string }
  | { type: "trigger-create"; name: string }
  | { type: "trigger-update"; name: string; id: string; fields: string[] }
  | { type: "trigger-delete"; name: string; id: string }
  | { type: "domain-create"; domain: string; slug: string }
  | { type: "domain-replace"; domain: string; slug: string; previousSlug: string }
  | { type: "domain-delete"; domain: string };

/** The name of an executor operation (`bucket-create`, `data-api-update`, …). */
export type OpType = ChangeOp["type"];

/** The operation named `T`. */
export type OpOf<T extends OpType> = Extract<ChangeOp, { type: T }>;

/** `dataApi` → `data-api`: a kind's name as the head of its operations' names. */
type KebabCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${KebabCase<Tail>}`
  : "";

/** The operations of kind `K`: those named `<kind in kebab case>-<verb>` (`data-api-update` for `dataApi`). */
export type OpTypeOf<K extends ResourceKind> = Extract<OpType, `${KebabCase<K>}-${string}`>;

/** A change of the plan together with what the executor needs to carry it out. */
export interface PlannedChange {
  change: Change;
  op: ChangeOp;
}
