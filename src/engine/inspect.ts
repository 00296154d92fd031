/**
 * `inspect` / `pullConfig`: read a branch in three waves and return it as a
 * policy plus metadata. Read-only; never creates anything.
 */
import type { PlatformApi } from "../api/platform-api.js";
import type { EngineEvent } from "../model/events.js";
import { inReadWave, withApiEvents } from "./events.js";
import { ownOptions, prepareRuntime, type ConfigOperationOptions } from "./options.js";
import { pulledRecords } from "../inspect/kind-pull.js";
import { buildPulledBranchConfig, type PulledBranchConfig } from "../inspect/pulled-config.js";
import { KIND_PULLS, POLICY_KINDS } from "../kinds/list.js";
import { KIND_READS } from "../kinds/modules.js";
import { branchNotFoundError } from "../inspect/read-live-state.js";
import { unionOfNeeds } from "../inspect/read-needs.js";
import { readSources } from "../inspect/read-sources.js";

/**
 * Reads the branch `options.branchId` and returns it as a `PulledBranchConfig` whose `config`
 * passes `defineConfig` and plans clean against the same branch. Features the platform does
 * not offer here read as none.
 *
 * @throws PlatformError `PLATFORM_MISSING_API_KEY` (neither `apiKey` nor `api`),
 * `PLATFORM_INVALID_OPTIONS`, `PLATFORM_BRANCH_NOT_FOUND` (listing `name (id)` of every
 * branch), or the client's errors.
 */
export async function inspect(given: ConfigOperationOptions): Promise<PulledBranchConfig> {
  const options = ownOptions(given);
  const { api, emit } = withApiEvents(prepareRuntime("inspect", options));
  return inspectWith(api, options.projectId, options.branchId, emit);
}

/** Identical to {@link inspect}. */
export const pullConfig: (options: ConfigOperationOptions) => Promise<PulledBranchConfig> = inspect;

/**
 * The three waves of an inspection on an adapter; `emit` gets a `read` event per request. Besides
 * the project, the branches, the branch's endpoints and credentials, it reads the sources the
 * kinds' pulls need (`KindRead.pull`): wave 2, then wave 3 from what wave 2 read.
 */
export async function inspectWith(api: PlatformApi, projectId: string, branchId: string, emit: (event: EngineEvent) => void = () => undefined): Promise<PulledBranchConfig> {
  const ref = { projectId, branchId };
  const context = { api, ref, parent: undefined };
  const pulls = KIND_READS.flatMap(({ kind, pull }) => (pull === undefined ? [] : [{ kind, ...pull }]));
  const project = await inReadWave(api, emit, 1, (api) => api.getProject({ projectId }));

  const [branches, endpoints, sources] = await inReadWave(api, emit, 2, (api) => Promise.allSettled([
    api.listBranches({ projectId }),
    api.listEndpoints(ref),
    readSources({ ...context, api }, { credentials: true, ...unionOfNeeds(pulls.map(({ kind, needs }) => ({ kind, needs }))) }),
  ]));
  const allBranches = settled(branches);
  const branch = allBranches.find((b) => b.id === branchId);
  if (branch === undefined) throw branchNotFoundError({ projectId, branchId, branches: allBranches });

  const second = settled(sources).records;
  const third = await inReadWave(api, emit, 3, (api) => readSources({ ...context, api }, unionOfNeeds(pulls.map(({ kind, next }) => ({ kind, needs: next?.(second) ?? {} })))));
  const base = { project, branch, branches: allBranches, endpoints: settled(endpoints) };
  return buildPulledBranchConfig(pulledRecords(base, { ...second, ...third.records }), KIND_PULLS, POLICY_KINDS);
}

function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "fulfilled") return result.value;
  throw result.reason;
}
