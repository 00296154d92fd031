import type { ApiBranch, ApiProject, CreateBranchParams, PlatformApi } from "../api/platform-api.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { resolvePolicy } from "../kinds/list.js";
import { KIND_MODULES } from "../kinds/modules.js";
import type { ResolvedFunctionConfig, ResolvedPolicy } from "../model/desired-state.js";
import { ErrorCode } from "../errors/codes.js";
import { PartialBranchCreateError, PushConflictError } from "../errors/engine-errors.js";
import { PlatformError, isPlatformError } from "../errors/platform-error.js";
import type { AppliedChange, AppliedChangeDetails, Change, ConflictReport, EngineWarning, PushResult } from "../model/plan.js";
import type { Json } from "../model/json.js";
import type { EngineEvent } from "../model/events.js";
import { inReadWave, withApiEvents } from "./events.js";
import type { PlatformApiPolling, PlatformApiTimeouts } from "../api/client-options.js";
import { type OperationRuntime, ownOptions, prepareRuntime } from "./options.js";
import { withMemory } from "./run-archives.js";
import { bundleAll, preparePlan } from "./prepare-plan.js";
import { gateAndExecute } from "./push-config.js";
import type { Check } from "../model/checks.js";
import { checkNewBranch, withFirstChecks } from "./checks-new-branch.js";

/** `createBranch` options (seed, plus ours). No `apiHost`: pass `api: createPlatformApi({ apiKey, apiHost })`. */
export interface CreateBranchOptions {
  projectId: string;
  /** The new branch's name. */
  branchName: string;
  apiKey?: string;
  api?: PlatformApi;
  bundleFunction?: (fn: ResolvedFunctionConfig) => Promise<Uint8Array>;
  baseDir?: string;
  /** @default 8 */
  concurrency?: number;
  /** @default false */
  allowDataLoss?: boolean;
  /** Permits function sources outside the policy's directory (as in `plan`). @default false */
  allowSourcesOutsideProject?: boolean;
  /** The bundle cache directory (see `PlanOptions.cacheDir`). @default none */
  cacheDir?: string;
  signal?: AbortSignal;
  onEvent?: (event: EngineEvent) => void;
  timeouts?: Partial<PlatformApiTimeouts>;
  polling?: Partial<PlatformApiPolling>;
  /** The new branch's annotation (string entries, at most 50), e.g. to mark who made it. */
  annotations?: Record<string, string>;
  /** Keys the function fingerprints (see `PlanOptions.fingerprintKey`). */
  fingerprintKey?: string;
  /**
   * Policy checks (see `PlanOptions.checks`), run twice: over the branch's creation before
   * anything is created (a mandatory violation throws `CheckFailedError`, nothing created), and
   * over the rest of the plan once the branch exists (a mandatory violation there stops before
   * any further change: `PartialBranchCreateError` whose `cause` is the `CheckFailedError`).
   */
  checks?: readonly Check[];
  /** Called once the target is checked, the functions bundled and the checks passed, right before the branch is created; a throw creates nothing. */
  beforeCreate?: () => void | Promise<void>;
}

/** What `createBranch` returns. */
export interface CreatedBranch {
  branchId: string;
  branchName: string;
  result: PushResult;
}

/**
 * The create request of branch `name` from `parent` with what each kind sets (in rank order), the
 * fields the `create:branch` change shows (`parent` first) and the details it reports.
 */
function createBody(desired: ResolvedPolicy, parent: ApiBranch, name: string, now: Date): { params: Omit<CreateBranchParams, "projectId">; after: Record<string, Json>; details: AppliedChangeDetails } {
  const branch: NonNullable<CreateBranchParams["branch"]> = { name, parent_id: parent.id };
  const endpoint: NonNullable<CreateBranchParams["endpoints"]>[number] = { type: "read_write" };
  const after: Record<string, Json> = { parent: parent.name };
  const details: AppliedChangeDetails = { parent: parent.name };
  for (const kind of KIND_MODULES) {
    const part = kind.create?.part?.(desired, now);
    if (part === undefined) continue;
    Object.assign(branch, part.branch);
    Object.assign(endpoint, part.endpoint);
    Object.assign(after, part.after);
    Object.assign(details, part.details);
  }
  return { params: { branch, endpoints: [endpoint] }, after, details };
}

/** The first conflict a kind finds in creating the branch (e.g. an invalid compute pair with the project's defaults). */
function creationConflict(desired: ResolvedPolicy, project: ApiProject, name: string): ConflictReport | undefined {
  for (const kind of KIND_MODULES) {
    const conflict = kind.create?.conflict?.(desired, project, name);
    if (conflict !== undefined) return conflict;
  }
  return undefined;
}

/**
 * The reads before creating a branch (bundles aside): the project and its branches (wave 1), the
 * name still free, the parent found, the compute pair valid. Returns the parent.
 */
async function checkTarget(rt: OperationRuntime, desired: ResolvedPolicy, projectId: string, name: string): Promise<{ parent: ApiBranch; project: ApiProject }> {
  const { api } = rt;
  const [project, branches] = await inReadWave(api, rt.emit, 1, (api) => Promise.all([api.getProject({ projectId }), api.listBranches({ projectId })]));
  const taken = branches.find((b) => b.name === name);
  if (taken !== undefined) {
    throw new PlatformError(ErrorCode.CONFLICT, `Branch "${name}" already exists in project ${projectId} (${taken.id}); choose another name or apply to it.`, {
      details: { projectId, branchName: name, existingId: taken.id },
    });
  }
  const parentName = desired.branch.parent;
  const parent = parentName === undefined ? branches.find((b) => b.default) : branches.find((b) => b.name === parentName);
  if (parent === undefined) {
    const available = branches.map((b) => b.name);
    throw new PlatformError(ErrorCode.BRANCH_NOT_FOUND, `The policy's parent branch "${parentName ?? "(default)"}" does not exist in project ${projectId}. Available: ${available.join(", ") || "none"}`, {
      details: { projectId, branchName: name, parent: parentName ?? null, available },
    });
  }
  const conflict = creationConflict(desired, project, name);
  if (conflict !== undefined) throw new PushConflictError([conflict], name);
  return { parent, project };
}

/**
 * Creates a branch from the policy: evaluates the closure once with
 * `exists: false`, creates the branch with its create-time settings in one call, waits for
 * its operations, then pushes the rest. A failure after creation throws `PartialBranchCreateError`.
 */
export async function createBranch(config: PolicyConfig, given: CreateBranchOptions): Promise<CreatedBranch> {
  const options = ownOptions(given);
  if (typeof options.branchName !== "string" || options.branchName.trim() === "") {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, "createBranch needs branchName: the new branch's name.", { details: { option: "branchName", value: String(options.branchName) } });
  }
  const rt = withApiEvents(prepareRuntime("createBranch", { ...options, apiHost: undefined }, "project"));
  return createBranchWith(rt, config, options);
}

/**
 * {@link createBranch} once the options are validated. The closure's input needs no read
 * (`exists: false, isDefault: false`), so the policy is resolved first (its one evaluation) and
 * bundling starts alongside the wave-1 reads. Error precedence: an
 * invalid policy (nothing sent), then a failed read, a taken name, a missing parent, an invalid
 * compute pair, then a bundle failure. A failure before the create call waits for the bundling
 * to settle, so no build outlives the call.
 */
async function createBranchWith(rt: OperationRuntime, config: PolicyConfig, options: CreateBranchOptions): Promise<CreatedBranch> {
  const { api } = rt;
  const projectId = options.projectId;
  const name = options.branchName;
  const desired = resolvePolicy(config, Object.freeze({ name, exists: false, isDefault: false }), options.baseDir === undefined ? {} : { baseDir: options.baseDir });
  const bundleInput = { allowDataLoss: false, ...withMemory(config), ...(options.bundleFunction ? { bundleFunction: options.bundleFunction } : {}) };
  const bundleWarnings: EngineWarning[] = [];
  const bundling = bundleAll(rt, desired, bundleInput, bundleWarnings);
  // Handled below; until then a failing build must not be an unhandled rejection.
  bundling.catch(() => undefined);
  let found: { parent: ApiBranch; project: ApiProject };
  try {
    found = await checkTarget(rt, desired, projectId, name);
  } catch (err) {
    await bundling.catch(() => undefined);
    throw err;
  }
  const { parent, project } = found;
  const archives = await bundling;
  const body = createBody(desired, parent, name, new Date());
  if (options.annotations !== undefined) body.params.annotation_value = { ...options.annotations };
  const created0 = await checkNewBranch(options.checks, { project, desired, name, change: creationChange(body), warnings: bundleWarnings });
  await options.beforeCreate?.();
  let response: Awaited<ReturnType<PlatformApi["createBranch"]>>;
  try {
    response = await api.createBranch({ projectId, ...body.params });
  } catch (err) {
    // Cancelled in flight: the search would be cancelled too; the error says the create may have landed.
    if (!isPlatformError(err, ErrorCode.OUTCOME_UNKNOWN) || rt.signal?.aborted === true) throw err;
    // The create may have landed: a branch of that name now exists, but its setup was not awaited.
    const found = (await api.listBranches({ projectId, search: name })).find((b) => b.name === name);
    if (found === undefined) throw err;
    throw new PartialBranchCreateError({ branchId: found.id, branchName: name, cause: err });
  }
  const created: ApiBranch = response.branch;
  try {
    await api.waitForOperations({ projectId, operations: response.operations });
  } catch (err) {
    throw new PartialBranchCreateError({ branchId: created.id, branchName: name, cause: err });
  }
  const createChange: AppliedChange = {
    id: "create:branch", address: "branch", kind: "branch", action: "create", class: "additive", fields: Object.keys(body.after),
    identifier: name, field: "parent", status: "applied", details: { ...body.details, branchId: created.id },
  };
  try {
    const prepared = await preparePlan(rt, {
      ids: { projectId, branchId: created.id },
      resolveDesired: () => desired,
      archives,
      archiveWarnings: bundleWarnings,
      allowDataLoss: options.allowDataLoss ?? false,
      now: () => new Date(),
    });
    const result = await gateAndExecute(rt, prepared, { dryRun: false, updateExisting: true, allowProtectedBranch: true, ...(options.checks === undefined ? {} : { checks: options.checks }) });
    return { branchId: created.id, branchName: name, result: { ...result, applied: [createChange, ...result.applied], ...withFirstChecks(created0, result.checks) } };
  } catch (err) {
    const details = (err as { details?: { result?: PushResult } }).details;
    const partial = details?.result ? { ...details.result, applied: [createChange, ...details.result.applied], ...withFirstChecks(created0, details.result.checks) } : undefined;
    throw new PartialBranchCreateError({ branchId: created.id, branchName: name, ...(partial ? { result: partial } : {}), cause: err });
  }
}

/** The `create:branch` change as checks see it: the created branch's parent and what the kinds set (protection, expiry, compute). */
function creationChange(body: ReturnType<typeof createBody>): Change {
  const fields = Object.keys(body.after);
  return { id: "create:branch", address: "branch", kind: "branch", action: "create", class: "additive", fields, before: null, after: { ...body.after }, reason: "the branch does not exist yet", dependsOn: [] };
}
