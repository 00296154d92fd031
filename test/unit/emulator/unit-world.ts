/** An in-memory emulator world for the domain functions' unit tests (no HTTP). */
import { createClock } from "../../../src/emulator/engine/clock.js";
import { createSeededRandom } from "../../../src/emulator/engine/random.js";
import { RuleError } from "../../../src/emulator/engine/rule-error.js";
import { defaultSeed, loadSeed } from "../../../src/emulator/seed.js";
import type { BranchRec, Principal, ProjectRec } from "../../../src/emulator/store/records.js";
import { World } from "../../../src/emulator/store/world.js";

const KEY = "svcemu_unit_key_000000000000000000000000000000";
const TIMINGS = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 100, deployBuildMs: 300, domainActivationMs: 0, claimTransferMs: 0 };

/** A function archive that builds. */
export const ARCHIVE = { sha256: "a".repeat(64), buildError: null };

/** A world loaded with the default seed, its project and default branch. */
export interface UnitWorld {
  world: World;
  project: ProjectRec;
  main: BranchRec;
  /** The seed's user, acting through its bootstrap key. */
  principal: Principal;
}

/** A fresh world on a fixed clock and seeded ids; `timings` override the instant defaults. */
export function unitWorld(timings: Partial<typeof TIMINGS> = {}): UnitWorld {
  const w = new World(createClock(new Date("2026-11-20T12:00:00Z")), { ...TIMINGS, ...timings }, createSeededRandom(7));
  const seeded = loadSeed(w, defaultSeed(KEY));
  const project = w.projects.get(seeded.projectId ?? "");
  const main = project?.branches.get(seeded.defaultBranchId ?? "");
  const principal = w.authenticate(KEY);
  if (project === undefined || main === undefined || principal === null) throw new Error("the default seed has no project or no key");
  return { world: w, project, main, principal };
}

/** The rule error a call throws, as `[kind, code]` (null when it succeeds). */
export function refusal(call: () => unknown): [string, string] | null {
  try {
    call();
    return null;
  } catch (err) {
    if (err instanceof RuleError) return [err.kind, err.code];
    throw err;
  }
}
