/**
 * Project delete, recovery and purge: a deleted project is hidden with all its
 * children but nothing is dropped; it can be recovered until `recoverable_until` (deleted_at + 7
 * days); at that moment it is purged: records dropped, custom domains released.
 */
import type { ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { requireUnlocked } from "./operations.js";

/** The recovery window: 7 days. */
export const RECOVERY_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** Marks the project deleted (computes suspended) and schedules its purge; refused while the project is locked. */
export function deleteProject(world: World, project: ProjectRec): void {
  requireUnlocked(project);
  const now = world.clock.now();
  project.deletedAt = now;
  project.recoverableUntil = now + RECOVERY_WINDOW_MS;
  project.updatedAt = now;
  for (const ep of project.endpoints.values()) {
    if (ep.currentState === "active") ep.suspendedAt = now;
    ep.currentState = "idle";
    delete ep.pendingState;
  }
  schedulePurge(world, project);
}

/** Schedules the purge of a deleted project at its `recoverable_until` (also after a restart). */
export function schedulePurge(world: World, project: ProjectRec): void {
  const at = project.recoverableUntil;
  if (project.deletedAt === undefined || at === undefined) return;
  world.scheduler.at(
    at,
    () => {
      const current = world.projects.get(project.id);
      if (current === undefined || current.deletedAt === undefined || current.recoverableUntil !== at) return;
      purgeProject(world, current);
    },
    false,
  );
}

/** Drops a project and releases its custom domains, then tells `world.onProjectPurged`. */
export function purgeProject(world: World, project: ProjectRec): void {
  for (const [domain, rec] of [...world.domains]) if (rec.projectId === project.id) world.domains.delete(domain);
  world.projects.delete(project.id);
  world.onProjectPurged(project);
}

/** Restores a deleted project within its window; returns false once the window has passed. */
export function recoverProject(world: World, project: ProjectRec): boolean {
  const now = world.clock.now();
  if (project.recoverableUntil !== undefined && now >= project.recoverableUntil) return false;
  delete project.deletedAt;
  delete project.recoverableUntil;
  project.updatedAt = now;
  return true;
}
