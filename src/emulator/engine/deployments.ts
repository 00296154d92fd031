/** Deployment builds (emulator.md §7.4): `pending` → `building` → `completed` | `failed`, on stored deadlines. */
import type { DeploymentRec } from "../store/records.js";
import type { World } from "../store/world.js";

/** Memory of every deployment: the platform's fixed 2048 MiB (functions cannot choose it). */
export const DEPLOYMENT_MEMORY_MIB = 2048;

/** Schedules the remaining build transitions of a deployment (a no-op once it has ended). */
export function scheduleBuild(world: World, d: DeploymentRec): void {
  if (d.status === "completed" || d.status === "failed") return;
  world.scheduler.at(d.buildingAt, () => {
    if (d.status === "pending") d.status = "building";
  });
  world.scheduler.at(d.finishAt, () => {
    if (d.buildError === null) d.status = "completed";
    else {
      d.status = "failed";
      d.error = d.buildError;
    }
  });
}
