/**
 * Every function of a live branch, by key, for the functions' resync after each batch of
 * mutations. Building the map (a key string and an entry per function) is most of a pass, and most
 * batches change no function record: the map of the last pass is given again when a walk finds the
 * same records, in the same order, under the same projects and branches.
 */
import type { BranchRec, FunctionRec, ProjectRec } from "../store/records.js";
import type { World } from "../store/world.js";
import { functionKeyOf } from "./runner.js";

/** A live function with the records it belongs to. */
export interface LiveFunction {
  project: ProjectRec;
  branch: BranchRec;
  fn: FunctionRec;
}

/** The live functions of a world, by key (`functionKeyOf`). */
export type LiveFunctionMap = ReadonlyMap<string, LiveFunction>;

/** One record of a walk: what a key and an entry are made of. */
interface Seen {
  project: ProjectRec;
  projectId: string;
  branch: BranchRec;
  branchId: string;
  fn: FunctionRec;
  slug: string;
}

/** The live functions' map, rebuilt only when a pass finds other function records than the last. */
export class LiveFunctions {
  private seen: Seen[] = [];
  private map: Map<string, LiveFunction> | undefined;

  /** Every function of a branch of a project that is not deleted, keyed by `functionKeyOf`. */
  of(world: World): LiveFunctionMap {
    let i = 0;
    let same = this.map !== undefined;
    for (const project of world.projects.values()) {
      if (project.deletedAt !== undefined) continue;
      for (const branch of project.branches.values()) {
        for (const fn of branch.functions.values()) {
          const last = this.seen[i];
          i += 1;
          if (same && (last === undefined || last.fn !== fn || last.slug !== fn.slug || last.branch !== branch || last.branchId !== branch.id || last.project !== project || last.projectId !== project.id)) same = false;
        }
      }
    }
    if (same && i === this.seen.length && this.map !== undefined) return this.map;
    return this.rebuild(world);
  }

  private rebuild(world: World): LiveFunctionMap {
    const seen: Seen[] = [];
    const map = new Map<string, LiveFunction>();
    for (const project of world.projects.values()) {
      if (project.deletedAt !== undefined) continue;
      for (const branch of project.branches.values()) {
        for (const fn of branch.functions.values()) {
          seen.push({ project, projectId: project.id, branch, branchId: branch.id, fn, slug: fn.slug });
          map.set(functionKeyOf({ projectId: project.id, branchId: branch.id, slug: fn.slug }), { project, branch, fn });
        }
      }
    }
    this.seen = seen;
    this.map = map;
    return map;
  }
}
