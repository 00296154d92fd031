/**
 * The pull stage of a kind (`KindModule.pull`): what it adds to a pulled branch
 * (`buildPulledBranchConfig`) and to the `svc.ts` rendered from it (`renderPolicySourceWith`).
 * Every member is pure and optional; the generic code visits the kinds in rank order.
 */
import type { ApiAuthIntegration, ApiBranch, ApiBucket, ApiCredential, ApiCustomDomain, ApiDatabase, ApiEndpoint, ApiFunction, ApiProject, ApiRole, ApiTrigger } from "../api/wire-types.js";
import type { BranchTuning, PolicyConfig, PruneDef } from "../config/policy-types.js";
import type { KindPreviews } from "../kinds/index.js";
import type { FieldDescriptor } from "../model/kinds/field.js";
import type { FirstDataApiRecords, SourceRecords } from "./read-sources.js";

/** The records a pull is built from. */
export interface PulledBranchRecords {
  project: ApiProject;
  branch: ApiBranch;
  /** Every branch of the project (for the parent's name). */
  branches: readonly ApiBranch[];
  endpoints: readonly ApiEndpoint[];
  /** The branch's roles (never passwords) and databases. */
  roles: readonly ApiRole[];
  databases: readonly ApiDatabase[];
  auth: ApiAuthIntegration | null;
  /** The Data API and the database it was read on, or null when none was read or it is off. */
  dataApi: FirstDataApiRecords | null;
  buckets: readonly ApiBucket[];
  functions: readonly ApiFunction[];
  credentials: readonly ApiCredential[];
  triggers: readonly ApiTrigger[];
  customDomains: readonly ApiCustomDomain[];
}

/** What a pull reads itself besides the read sources (wave 1's project, wave 2's branches and endpoints). */
export type PulledBaseRecords = Pick<PulledBranchRecords, "project" | "branch" | "branches" | "endpoints">;

/** A pull's records: its own reads and the sources the kinds' pulls read (`KindRead.pull`); a source none read is none. */
export function pulledRecords(base: PulledBaseRecords, sources: SourceRecords): PulledBranchRecords {
  return {
    ...base,
    roles: sources.roles ?? [],
    databases: sources.databases ?? [],
    auth: sources.auth ?? null,
    dataApi: sources.firstDataApi ?? null,
    buckets: sources.buckets ?? [],
    functions: sources.functions ?? [],
    triggers: sources.triggers ?? [],
    customDomains: sources.customDomains ?? [],
    credentials: sources.credentials ?? [],
  };
}

/**
 * How the renderer writes outside values into the source, each escaped so that a live name can
 * neither end a comment nor display differently from what it runs.
 */
export interface SourceText {
  /** A value as a JSON literal (`"a\nb"` → `"a\\nb"`). */
  literal(value: unknown): string;
  /** An object key: bare when it is an identifier, else a literal. */
  key(key: string): string;
  /** A value on one line (`{ type: "schedule", cron: "0 3 * * *" }`). */
  inline(value: unknown): string;
}

/** What a kind adds to a pulled branch and to the `svc.ts` rendered from it. */
export interface KindPull {
  /** Its top-level keys of the pulled policy, in their policy form; `{}` when it declares nothing. */
  readonly policy?: (records: PulledBranchRecords) => PolicyConfig;
  /** Its keys of the pulled branch tuning (the closure's result), in their policy form; `{}` when it has none to declare. */
  readonly tuning?: (records: PulledBranchRecords) => BranchTuning;
  /** Its lists in `preview`: the live items a pulled policy cannot declare, each sorted (empty lists included). */
  readonly preview?: (records: PulledBranchRecords) => Partial<KindPreviews>;
  /**
   * Its key of `prune` and how many live items of it the branch has: when any kind's count is not
   * zero, the pulled policy states every such key `false`, so a plan of the pulled file reads these
   * kinds and lists what it does not declare as unmanaged (never deletes it).
   */
  readonly prune?: { readonly key: keyof PruneDef; live(records: PulledBranchRecords): number };
  /**
   * The objects its descriptor owns in the pulled policy, by their path from the top of the policy
   * (`branch` is the tuning: `branch.postgres.computeSettings`): the renderer leaves out the fields a
   * pull does not write and writes durations as text (`"1h"`).
   */
  readonly described?: Readonly<Record<string, readonly FieldDescriptor[]>>;
  /**
   * Its lines after the policy in the rendered `svc.ts`, which the renderer comments out (none when
   * it has nothing to say): what the preview lists, written as the user would declare it.
   */
  readonly comments?: (preview: Partial<KindPreviews>, text: SourceText) => string[];
}

/** A kind's comment lines under `heading` (what the branch has and where to declare it), or none when `lines` is empty. */
export function commentSection(heading: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [heading, ...lines];
}
