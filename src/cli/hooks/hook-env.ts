/**
 * The variables an `after` hook gets: what a function on the branch sees (its database URLs,
 * `SVC_BRANCH`, the auth, Data API and AI gateway URLs when enabled, the functions' URLs), read
 * from the API once the command has finished, the same way `svc dev` reads them. The connection
 * URLs and their passwords come back as secrets, so the CLI never prints them.
 */
import type { PlatformApi } from "../../api/platform-api.js";
import { platformEnvironment } from "../../rules/function-env.js";
import { readBranchEnv } from "../dev/branch-env.js";
import type { BranchEnvReading } from "./lifecycle.js";

/** The branch whose variables are read. */
export interface HookEnvTarget {
  api: PlatformApi;
  projectId: string;
  branchId: string;
  branchName: string;
  /** The evaluated policy: its declared databases choose the one `DATABASE_URL` points at. */
  config: unknown;
}

/** Reads the branch's function environment (see the module comment); a variable that cannot be read is left out. */
export async function readHookEnv(target: HookEnvTarget): Promise<BranchEnvReading> {
  const { api, projectId, branchId, branchName, config } = target;
  // Hooks report no missing services: a hook reads what the branch has.
  const { values, secrets } = await readBranchEnv({ api, projectId, branchId, branchName }, { auth: "unmanaged", dataApi: { state: "unmanaged" }, aiGateway: false, buckets: [], config });
  return { env: platformEnvironment(values, ""), secrets };
}
