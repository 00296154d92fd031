/**
 * Reading a branch's live state in sequential waves: wave 1 reads the project, the branch and its
 * endpoints in parallel; wave 2 reads, in parallel and once each, the read sources
 * (`read-sources.ts`) the kinds need for the policy, and each kind builds its part of the state
 * from them; the engine's optional wave 3 reads what the deletes of a first diff need decided
 * (`readGuardState`).
 */
import type { ApiBranch, ApiEndpoint } from "../api/wire-types.js";
import type { PlatformApi } from "../api/platform-api.js";
import type { BranchTarget, ResolvedPolicy } from "../model/desired-state.js";
import { ErrorCode, PlatformError, isPlatformError } from "../errors/index.js";
import type { LiveState } from "../model/live-state.js";
import type { PlannedChange } from "../model/planned-change.js";
import {
  branchTargetOf,
  compareCodePoints,
  normalizeBranch,
  normalizeProject,
} from "./normalize.js";
import { type ReadNeeds, type SourceRecords, type UnavailableFeature, readSources } from "./read-sources.js";
import { unionOfNeeds } from "./read-needs.js";

export type { UnavailableFeature } from "./read-sources.js";

/** What every operation reads first: enough to evaluate the branch closure. */
export interface BaseLiveState {
  project: LiveState["project"];
  branch: LiveState["branch"];
  /** The branch's endpoints as listed (the kinds built on them read their own, e.g. read replicas). */
  endpoints: readonly ApiEndpoint[];
  /** The closure's input for this existing branch. */
  target: BranchTarget;
}

/**
 * A kind's read: the read sources it needs to plan a policy and its part of the live state built
 * from what was read. A kind that needs nothing makes no request of its own.
 */
export interface KindRead<Contribution> {
  /** The sources (and their parameters) the kind needs to plan `policy`; absent: none. Pure. */
  readonly needs?: (policy: ResolvedPolicy) => ReadNeeds;
  /**
   * Its fields of the live state (and its slice under `kinds`) from the records wave 2 read (the
   * sources any kind needed; a source absent was not read) and wave 1's `base`. A field it leaves
   * out was not read. Pure.
   */
  readonly slice: (records: SourceRecords, base: BaseLiveState) => Contribution;
  /**
   * The sources its pull stage builds from (`PulledBranchRecords`): those read in a pull's second
   * wave, and those `next` asks of the third from what the second read (none: no request). A pull
   * reads the branch alone: the parent's sources read as none.
   */
  readonly pull?: {
    readonly needs: ReadNeeds;
    next?(records: SourceRecords): ReadNeeds;
  };
  /**
   * What its deletes need read before they can be decided (wave 3, after a first diff): the
   * sources its planned `changes` need (none: no wave for it), and its fields from their records.
   */
  readonly guards?: {
    needs(changes: readonly PlannedChange[]): ReadNeeds;
    slice(records: SourceRecords): Contribution;
  };
}

/** A kind's read as the generic reader holds it, with the kind's name (a conflict between two kinds' needs names both). */
export type AnyKindRead = KindRead<Partial<LiveState>> & { readonly kind: string };

/** The live state plus the features that turned out to be unavailable. */
export interface LiveStateReadResult {
  state: LiveState;
  /** Reads that failed with `PLATFORM_FEATURE_UNAVAILABLE` (the field was set to none). */
  unavailable: UnavailableFeature[];
}

/** Identifies the branch to read. */
export interface ReadBaseStateOptions {
  api: PlatformApi;
  projectId: string;
  branchId: string;
}

/** Options of {@link readLiveState}. */
export interface ReadLiveStateOptions extends ReadBaseStateOptions {
  /** The sources to read, fixed or derived from the branch (e.g. the kinds' needs of the resolved policy). */
  needs: ReadNeeds | ((target: BranchTarget) => ReadNeeds);
  /** The kinds' reads that build the state from the records: the registry's (`KIND_READS`), which give every field a state requires. */
  kinds: readonly AnyKindRead[];
}

/**
 * Reads the whole live state in two waves (base, then the needed sources).
 * A missing branch throws `PLATFORM_BRANCH_NOT_FOUND` listing the available branches.
 */
export async function readLiveState(options: ReadLiveStateOptions): Promise<LiveStateReadResult> {
  const base = await readBaseState(options);
  const needs = typeof options.needs === "function" ? options.needs(base.target) : options.needs;
  return readFeatureState({ api: options.api, projectId: options.projectId, base, needs, kinds: options.kinds });
}

/** Wave 1: project, branch and endpoints in parallel. */
export async function readBaseState(options: ReadBaseStateOptions): Promise<BaseLiveState> {
  const { api, projectId, branchId } = options;
  const ref = { projectId, branchId };
  const [project, branch, endpoints] = await Promise.allSettled([api.getProject({ projectId }), api.getBranch(ref), api.listEndpoints(ref)]);
  const liveProject = normalizeProject(settledValue(project));
  if (branch.status === "rejected" && isPlatformError(branch.reason, ErrorCode.NOT_FOUND)) {
    throw await branchNotFound(api, projectId, branchId, branch.reason);
  }
  const liveBranch = normalizeBranch(settledValue(branch));
  const listed = settledValue(endpoints);
  return {
    project: liveProject,
    branch: liveBranch,
    endpoints: listed,
    target: Object.freeze(branchTargetOf(liveBranch)),
  };
}

/** Wave 2's answers: the source records, and the features the platform does not offer. */
export interface FeatureSources {
  records: SourceRecords;
  unavailable: UnavailableFeature[];
}

/**
 * Wave 2: the sources `needs` asks for, in parallel, then each kind's part of the state built from
 * them (fields in rank order; the kinds' own slices gathered under `kinds`, absent when none).
 */
export async function readFeatureState(options: {
  api: PlatformApi;
  projectId: string;
  base: BaseLiveState;
  needs: ReadNeeds;
  kinds: readonly AnyKindRead[];
}): Promise<LiveStateReadResult> {
  return featureStateOf(await readFeatureSources({ ...options, branch: options.base.branch }), options.base, options.kinds);
}

/**
 * Wave 2's requests alone: the sources `needs` asks for on `branch` (and its parent), in parallel.
 * They depend on wave 1 only through the branch's id and parent, so a caller that already knows
 * both may send them with wave 1 (`engine/prepare-plan.ts`).
 */
export function readFeatureSources(options: { api: PlatformApi; projectId: string; branch: Pick<LiveState["branch"], "id" | "parentId">; needs: ReadNeeds }): Promise<FeatureSources> {
  const { api, projectId, branch } = options;
  const parentId = branch.parentId;
  const context = { api, ref: { projectId, branchId: branch.id }, parent: parentId === undefined ? undefined : { projectId, branchId: parentId } };
  return readSources(context, options.needs);
}

/** Each kind's part of the live state, built from wave 2's `sources` and wave 1's `base`. */
export function featureStateOf(sources: FeatureSources, base: BaseLiveState, kinds: readonly AnyKindRead[]): LiveStateReadResult {
  // The fields a live state requires besides the project and the branch are kinds' fields built
  // from wave 1's records (no source needed), so the registry's reads always give them.
  const state = { project: base.project, branch: base.branch } as LiveState;
  const slices: NonNullable<LiveState["kinds"]> = {};
  for (const read of kinds) {
    const { kinds: own, ...fields } = read.slice(sources.records, base);
    Object.assign(state, fields);
    Object.assign(slices, own);
  }
  if (Object.keys(slices).length > 0) state.kinds = slices;
  return { state, unavailable: sources.unavailable };
}

/**
 * Wave 3 (engine only): the delete guards' reads the kinds need for `changes` (a first diff's), in
 * parallel, and the fields the kinds build from them; `null` when no kind needs any (no wave).
 */
export async function readGuardState(options: {
  api: PlatformApi;
  projectId: string;
  base: BaseLiveState;
  changes: readonly PlannedChange[];
  kinds: readonly AnyKindRead[];
}): Promise<Partial<LiveState> | null> {
  const guards = options.kinds.flatMap(({ kind, guards }) => (guards === undefined ? [] : [{ kind, ...guards }]));
  const needs = unionOfNeeds(guards.map((guard) => ({ kind: guard.kind, needs: guard.needs(options.changes) })));
  if (Object.keys(needs).length === 0) return null;
  const ref = { projectId: options.projectId, branchId: options.base.branch.id };
  const { records } = await readSources({ api: options.api, ref, parent: undefined }, needs);
  return Object.assign({}, ...guards.map((guard) => guard.slice(records)));
}

/** Lists the project's branches and builds the `PLATFORM_BRANCH_NOT_FOUND` error for `branchId`. */
export async function branchNotFound(api: PlatformApi, projectId: string, branchId: string, cause?: unknown): Promise<PlatformError> {
  const branches: ApiBranch[] = await api.listBranches({ projectId }).catch(() => []);
  return branchNotFoundError({ projectId, branchId, branches, cause });
}

/**
 * The `PLATFORM_BRANCH_NOT_FOUND` error for `branchId`, listing the project's branches as
 * `name (id)` (a name passed instead of an id is the usual cause).
 */
export function branchNotFoundError(options: {
  projectId: string;
  branchId: string;
  branches: readonly ApiBranch[];
  cause?: unknown;
}): PlatformError {
  const { projectId, branchId, branches, cause } = options;
  const available = branches.map((b) => ({ name: b.name, id: b.id })).sort((a, b) => compareCodePoints(a.name, b.name));
  const byName = available.find((b) => b.name === branchId);
  const hint = byName === undefined ? "Pass a branch id (br-…), not a name." : `"${branchId}" is a branch name; its id is ${byName.id}.`;
  const list = available.length === 0 ? "none" : available.map((b) => `${b.name} (${b.id})`).join(", ");
  return new PlatformError(
    ErrorCode.BRANCH_NOT_FOUND,
    `Branch ${branchId} does not exist in project ${projectId}. ${hint} Available branches: ${list}.`,
    { details: { projectId, branchId, available }, ...(cause === undefined ? {} : { cause }) },
  );
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "fulfilled") return result.value;
  throw result.reason;
}
