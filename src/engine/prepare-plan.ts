import type { ResolvedFunctionConfig, ResolvedPolicy } from "../model/desired-state.js";
import { FEATURE_KINDS } from "../kinds/list.js";
import { bundleFunctions } from "../bundle/bundle-many.js";
import type { ArchiveRef } from "../bundle/archive-ref.js";
import type { ArchiveMemory } from "../bundle/archive-cache.js";
import { KIND_READS, diffState, readNeedsForPolicy } from "../kinds/modules.js";
import type { DiffResult } from "../diff/plan-types.js";
import type { FunctionTag } from "../model/planned-change.js";
import type { LiveState } from "../model/live-state.js";
import type { EngineWarning } from "../model/plan.js";
import { inReadWave } from "./events.js";
import { envTagMatters } from "./function-fingerprint.js";
import type { OperationRuntime } from "./options.js";
import { type BaseLiveState, type FeatureSources, featureStateOf, readBaseState, readFeatureSources, readGuardState, type UnavailableFeature } from "../inspect/read-live-state.js";
import type { DiffOptions } from "../diff/plan-types.js";
import type { PlanSelection } from "../model/plan.js";
import { checkSourcesInsideProject } from "./source-scope.js";
import type { SharedArchives } from "./shared-archives.js";
import { escapeUnsafeText } from "../rules/visible-text.js";
import type { BundleHeadStart, BundleListeners } from "./bundle-head-start.js";

/** Identifies the branch being planned. */
export interface BranchIds {
  projectId: string;
  branchId: string;
}

function unavailableKinds(list: readonly UnavailableFeature[]): NonNullable<DiffOptions["unavailable"]> {
  const out: NonNullable<DiffOptions["unavailable"]> = {};
  for (const u of list) {
    const kind = FEATURE_KINDS.get(u.field);
    if (kind !== undefined) out[kind] = u.message;
  }
  return out;
}

/** Everything known once a plan is computed, before any gate or mutation. */
export interface PreparedPlan {
  ids: BranchIds;
  base: BaseLiveState;
  desired: ResolvedPolicy;
  live: LiveState;
  diff: DiffResult;
  /** Each function's archive by reference: its bytes are read when its deployment is sent. */
  archives: ReadonlyMap<string, ArchiveRef>;
  /** Diff warnings plus bundler warnings. */
  warnings: EngineWarning[];
  /** Set when `targets` / `exclude` narrowed `diff` (see `select-changes.ts`). */
  selection?: PlanSelection;
  /** The fingerprint of each function the diff was given (reused by `shown-plan.ts`). */
  functionTags: ReadonlyMap<string, FunctionTag>;
  /** The bundler's warnings among `warnings`. */
  bundleWarnings: readonly EngineWarning[];
}

/** Inputs of {@link preparePlan} besides the runtime. */
export interface PreparePlanInput {
  ids: BranchIds;
  /** Evaluates the policy for the live branch: called exactly once. */
  resolveDesired: (base: BaseLiveState) => ResolvedPolicy;
  bundleFunction?: (fn: ResolvedFunctionConfig) => Promise<Uint8Array>;
  /** Archives built earlier (createBranch bundles before creating); skips bundling. */
  archives?: ReadonlyMap<string, ArchiveRef>;
  /** The bundler warnings of `archives`, reported with the plan's warnings. */
  archiveWarnings?: readonly EngineWarning[];
  /** Archives of earlier operations on the same policy (see `run-archives.ts`). */
  memory?: ArchiveMemory;
  /** The archives of the run's other branches (a fleet): each function source bundled once. */
  shared?: SharedArchives;
  /** Builds started when the policy was loaded (`bundle-head-start.ts`): taken when they are this plan's. */
  headStart?: BundleHeadStart;
  allowDataLoss: boolean;
  now: () => Date;
  /** A plan that applies nothing: the derivations started before the reads that no decision used are cancelled. */
  dryRun?: boolean;
  /**
   * The fingerprints an earlier plan computed for the same resolved policy and `archives` (a shown
   * plan run in the same process): used as they are, none computed or started.
   */
  functionTags?: ReadonlyMap<string, FunctionTag>;
  /**
   * What an earlier plan of the same policy evaluation read (a shown plan run in the same process):
   * wave 2's requests, which depend on wave 1 only through the branch's id and parent, are sent
   * with wave 1 and their answers used when wave 1 gives the same branch id and parent and
   * `resolveDesired` returns this very `desired`; otherwise wave 2 is read after wave 1, as always.
   */
  readAhead?: { branch: Pick<BaseLiveState["branch"], "id" | "parentId">; desired: ResolvedPolicy };
  /** `false`: the diff's `stateFingerprint` is left empty (see `DiffOptions.stateFingerprint`). @default true */
  stateFingerprint?: boolean;
}

/**
 * Bundles every declared function (≤ concurrency at once), collecting bundler warnings;
 * `onArchive` runs as each archive is ready. With `shared`, archives another branch of the run
 * built are reused.
 */
export async function bundleAll(
  rt: OperationRuntime,
  desired: ResolvedPolicy,
  input: Pick<PreparePlanInput, "bundleFunction" | "archives" | "memory" | "shared" | "headStart">,
  warnings: EngineWarning[],
  onArchive?: (slug: string, zipSha256: string) => void,
): Promise<ReadonlyMap<string, ArchiveRef>> {
  if (input.archives !== undefined) return input.archives;
  if (desired.functions.length === 0) return new Map();
  if (!rt.allowSourcesOutsideProject) await checkSourcesInsideProject(desired);
  const bundlerWarning = (slug: string, message: string): EngineWarning => ({ code: "BUNDLER", message: `function ${slug}: ${message}`, address: `function.${slug}` });
  const options = {
    concurrency: rt.concurrency,
    ...(rt.cacheDir === undefined ? {} : { cacheDir: rt.cacheDir }),
    ...(input.memory === undefined ? {} : { memory: input.memory }),
    ...(desired.baseDir === null ? {} : { workingDir: desired.baseDir }),
    ...(input.bundleFunction ? { bundleFunction: input.bundleFunction } : {}),
  };
  if (input.shared !== undefined) {
    const got = await input.shared.archivesFor(desired.functions, async (functions) => {
      const found = new Map<string, string[]>();
      const archives = await bundleFunctions(functions, { ...options, onWarning: (w) => found.set(w.slug, [...(found.get(w.slug) ?? []), w.message]) });
      return { archives, warnings: found };
    });
    warnings.push(...got.warnings.map((w) => bundlerWarning(w.slug, w.message)));
    for (const [slug, archive] of got.archives) {
      onArchive?.(slug, archive.zipSha256);
      rt.emit({ type: "bundle", slug, phase: "done", zipBytes: archive.zipBytes, zipSha256: archive.zipSha256 });
    }
    return got.archives;
  }
  const listeners: BundleListeners = {
    onProgress: (p) => {
      if (p.phase === "done") onArchive?.(p.slug, p.zipSha256);
      rt.emit(p.phase === "done" ? { type: "bundle", slug: p.slug, phase: "done", zipBytes: p.zipBytes, zipSha256: p.zipSha256 } : { type: "bundle", slug: p.slug, phase: "start" });
    },
    onWarning: (w) => warnings.push(bundlerWarning(w.slug, w.message)),
  };
  const early = await input.headStart?.take(desired.functions, options, listeners);
  return early ?? bundleFunctions(desired.functions, { ...options, ...listeners });
}

/**
 * The fingerprint of each function, started as soon as both its archive and the live functions
 * are known; the hardened derivations themselves started when the policy was resolved, so they
 * overlap the reads and bundling. An env tag is computed only when something live can be
 * compared with it; otherwise it is deferred to the apply (and in a dry run, the derivations no
 * decision used are cancelled if they have not started).
 */
function fingerprintAsReady(rt: OperationRuntime, desired: ResolvedPolicy, live: Promise<LiveState>, dryRun: boolean) {
  const bySlug = new Map(desired.functions.map((fn) => [fn.slug, fn]));
  const liveBySlug = live.then((state) => new Map((state.functions ?? []).map((f) => [f.slug, f])));
  liveBySlug.catch(() => undefined); // a failed read is reported by its wave, also when no tag waits here
  const tags = new Map<string, Promise<FunctionTag>>();
  const start = (slug: string, zipSha256: string): void => {
    const fn = bySlug.get(slug);
    if (fn === undefined || tags.has(slug)) return;
    const input = { slug, zipSha256, runtime: fn.runtime, env: fn.env };
    const tag = liveBySlug.then((functions) =>
      rt.fingerprints.mode === "keyed" || envTagMatters(functions.get(slug), rt.fingerprints.codeTag(slug, zipSha256))
        ? rt.fingerprints.tag(input)
        : rt.fingerprints.deferredTag(input),
    );
    tag.catch(() => undefined); // awaited below; a failed read must not surface as an unhandled rejection first
    tags.set(slug, tag);
  };
  const all = async (archives: ReadonlyMap<string, ArchiveRef>): Promise<ReadonlyMap<string, FunctionTag>> => {
    for (const [slug, archive] of archives) start(slug, archive.zipSha256);
    if (dryRun) {
      // Reactions run in the order they were added: every decision above is made after this.
      await liveBySlug;
      rt.fingerprints.dropUnused();
    }
    const out = new Map<string, FunctionTag>();
    await Promise.all([...tags].map(async ([slug, tag]) => out.set(slug, await tag)));
    const stats = rt.fingerprints.stats();
    if (rt.fingerprints.mode === "hardened" && stats.derivations > 0) rt.emit({ type: "fingerprints", mode: "hardened", derivations: stats.derivations, ms: Math.round(stats.ms) });
    return out;
  };
  return { start, all };
}

/** {@link fingerprintAsReady}'s shape for fingerprints an earlier plan computed: nothing to start. */
function givenTags(tags: ReadonlyMap<string, FunctionTag>) {
  return { start: (_slug: string, _zipSha256: string): void => undefined, all: async (_archives: ReadonlyMap<string, ArchiveRef>) => tags };
}

/**
 * Reads the branch (wave 1), evaluates the policy once, reads what the kinds need for it (wave 2)
 * while bundling every function, fingerprints each function as soon as its archive and the live
 * functions are known, diffs, and when the kinds' deletes need something read before they can be
 * decided (a bucket's objects, a database's Data API) reads it (wave 3) and diffs again. No mutation.
 */
export async function preparePlan(rt: OperationRuntime, input: PreparePlanInput): Promise<PreparedPlan> {
  const { projectId } = input.ids;
  const secondWave = (branch: Pick<BaseLiveState["branch"], "id" | "parentId">, desired: ResolvedPolicy): Promise<FeatureSources> =>
    inReadWave(rt.api, rt.emit, 2, (api) => readFeatureSources({ api, projectId, branch, needs: readNeedsForPolicy(desired) }));
  const ahead = input.readAhead === undefined ? undefined : secondWave(input.readAhead.branch, input.readAhead.desired);
  ahead?.catch(() => undefined); // used, and its failure reported, only when wave 1 confirms it below
  const base = await inReadWave(rt.api, rt.emit, 1, (api) => readBaseState({ api, ...input.ids }));
  const desired = input.resolveDesired(base);
  if (input.functionTags === undefined) rt.fingerprints.prefetch(desired.functions.map((fn) => fn.env));
  const bundleWarnings: EngineWarning[] = [...(input.archiveWarnings ?? [])];
  const confirmed = ahead !== undefined && input.readAhead?.desired === desired && input.readAhead.branch.id === base.branch.id && input.readAhead.branch.parentId === base.branch.parentId;
  const reading = (confirmed ? ahead : secondWave(base.branch, desired)).then((sources) => featureStateOf(sources, base, KIND_READS));
  const fingerprints = input.functionTags === undefined ? fingerprintAsReady(rt, desired, reading.then((r) => r.state), input.dryRun === true) : givenTags(input.functionTags);
  const [archives, read, parentWarnings] = await Promise.all([
    bundleAll(rt, desired, input, bundleWarnings, fingerprints.start),
    reading,
    parentNotFoundWarnings(rt, input.ids.projectId, desired.branch.parent),
  ]);
  const live = read.state;
  const unavailable = unavailableKinds(read.unavailable);
  const tags = await fingerprints.all(archives);
  const now = input.now();
  const options: DiffOptions = { now, functionTags: tags, allowDataLoss: input.allowDataLoss, unavailable, ...(input.stateFingerprint === false ? { stateFingerprint: false } : {}) };
  let diff = diffState(desired, live, options);
  const guarded = await inReadWave(rt.api, rt.emit, 3, (api) => readGuardState({ api, projectId, base, changes: diff.changes, kinds: KIND_READS }));
  if (guarded !== null) {
    Object.assign(live, guarded);
    diff = diffState(desired, live, options);
  }
  return { ids: input.ids, base, desired, live, diff, archives, warnings: [...diff.warnings, ...parentWarnings, ...bundleWarnings], functionTags: tags, bundleWarnings };
}

/**
 * `PARENT_NOT_FOUND` when the policy names a parent branch the project does not have: harmless
 * for a plan of an existing branch (the parent is used only when creating one, where it is an
 * error), but a typo the user should see. One read, only when a parent is declared.
 */
async function parentNotFoundWarnings(rt: OperationRuntime, projectId: string, parent: string | undefined): Promise<EngineWarning[]> {
  if (parent === undefined) return [];
  const branches = await inReadWave(rt.api, rt.emit, 2, (api) => api.listBranches({ projectId, search: parent }));
  if (branches.some((b) => b.name === parent)) return [];
  return [{
    code: "PARENT_NOT_FOUND",
    message: `the policy's parent branch "${escapeUnsafeText(parent)}" does not exist in project ${projectId}; it is used only when creating a branch, so creating one from this policy would fail: fix branch.parent`,
    address: "branch",
  }];
}
