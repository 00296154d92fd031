/**
 * Schedule triggers fire on the emulator's clock: each enabled schedule trigger has one deadline
 * at its next due minute in the emulator's scheduler, so runs happen in real time with the system
 * clock, and when a manual clock is advanced every due minute fires once, in order (across
 * triggers too: the scheduler runs deadlines by time). A big advance is bounded: a trigger fires
 * at most {@link MAX_LATE_RUNS} runs that are late by a minute or more in a row, then skips to
 * its next run after now and reports the skipped range once.
 */
import { isoTime } from "../engine/clock.js";
import { nextCronRun } from "../engine/cron-next.js";
import { scheduledAtMinute } from "../../rules/trigger-invocation.js";
import type { TriggerRec } from "../store/records.js";
import type { World } from "../store/world.js";
import type { DeliveryTarget } from "./deliveries.js";

/** Most late runs of one trigger fired in a row (a clock advance of a day on `* * * * *` fires 100, not 1,440). */
export const MAX_LATE_RUNS = 100;

/** Runs of one trigger that a clock advance skipped. */
export interface SkippedRuns {
  project_id: string;
  branch_id: string;
  trigger_id: string;
  trigger_name: string;
  /** The first skipped minute. */
  from: string;
  /** The clock when the runs were skipped (the last skipped minute is at or before it). */
  until: string;
}

interface Armed {
  token: number;
  /** The last sync that found its trigger still live. */
  pass: number;
  cron: string;
  version: number;
  /** Late runs fired in a row. */
  late: number;
  projectId: string;
  branchId: string;
  triggerId: string;
  /** Its key in the armed map. */
  key: string;
}

/** The enabled, current schedule trigger an armed entry stands for, if it still is. */
function currentTrigger(world: World, armed: Armed): TriggerRec | undefined {
  const project = world.projects.get(armed.projectId);
  const t = project?.deletedAt === undefined ? project?.branches.get(armed.branchId)?.triggers.get(armed.triggerId) : undefined;
  return t?.enabled && t.type === "schedule" && t.cron === armed.cron && t.version === armed.version ? t : undefined;
}

/** Keeps one deadline per enabled schedule trigger in the world's scheduler. */
export class ScheduleFiring {
  private world: World | undefined;
  private readonly armed = new Map<string, Armed>();
  /**
   * The entry each trigger record matched in the last pass that saw it: a pass finds most records
   * as they were and checks them through this without building their key (about 1 µs a trigger).
   */
  private matched = new WeakMap<TriggerRec, Armed>();
  private tokens = 0;
  private passes = 0;
  private readonly skipped: SkippedRuns[] = [];

  constructor(
    private readonly deliver: (target: DeliveryTarget) => void,
    private readonly notice: (line: string) => void,
  ) {}

  /** Arms new and changed schedule triggers, forgets removed and disabled ones (a new world starts over). */
  sync(world: World): void {
    if (world !== this.world) {
      this.world = world;
      this.armed.clear();
      this.matched = new WeakMap();
    }
    const now = world.clock.now();
    const pass = ++this.passes;
    for (const project of world.projects.values()) {
      if (project.deletedAt !== undefined) continue;
      for (const branch of project.branches.values()) {
        for (const t of branch.triggers.values()) {
          if (t.type !== "schedule" || !t.enabled || t.cron === undefined) continue;
          // The same entry the key below would find, when the record is where and as it was.
          const known = this.matched.get(t);
          if (known !== undefined && known.projectId === project.id && known.branchId === branch.id && known.triggerId === t.id && known.cron === t.cron && known.version === t.version && this.armed.get(known.key) === known) {
            known.pass = pass;
            continue;
          }
          const key = `${project.id}\u0000${branch.id}\u0000${t.id}`;
          const armed = this.armed.get(key);
          if (armed !== undefined && armed.cron === t.cron && armed.version === t.version) {
            armed.pass = pass;
            this.matched.set(t, armed);
            continue;
          }
          const next = nextCronRun(t.cron, now);
          // Not armed again, and forgotten below: a changed trigger whose cron never fires again.
          if (next === null) continue;
          const entry: Armed = { token: ++this.tokens, pass, cron: t.cron, version: t.version, late: 0, projectId: project.id, branchId: branch.id, triggerId: t.id, key };
          this.armed.set(key, entry);
          this.matched.set(t, entry);
          this.arm(world, key, entry, next);
        }
      }
    }
    for (const [key, entry] of this.armed) if (entry.pass !== pass) this.armed.delete(key);
  }

  /** Recent skipped ranges, oldest first (at most 100). */
  skippedRuns(): SkippedRuns[] {
    return [...this.skipped];
  }

  private arm(world: World, key: string, entry: Armed, at: number): void {
    // Not "busy": settle() must not wait for (or advance a manual clock to) the next schedule.
    world.scheduler.at(at, () => this.due(world, key, entry, at), false);
  }

  private due(world: World, key: string, entry: Armed, at: number): void {
    if (world !== this.world || this.armed.get(key) !== entry || entry.token !== this.armed.get(key)?.token) return;
    const trigger = currentTrigger(world, entry);
    if (trigger === undefined) {
      this.armed.delete(key);
      return;
    }
    const now = world.clock.now();
    entry.late = now - at >= 60_000 ? entry.late + 1 : 0;
    if (entry.late > MAX_LATE_RUNS) {
      const resume = nextCronRun(entry.cron, now);
      const range: SkippedRuns = { project_id: entry.projectId, branch_id: entry.branchId, trigger_id: trigger.id, trigger_name: trigger.name, from: isoTime(at), until: isoTime(now) };
      this.skipped.push(range);
      if (this.skipped.length > 100) this.skipped.shift();
      this.notice(`schedule trigger ${trigger.name} on branch ${entry.branchId}: skipped the runs due from ${range.from} to ${range.until}; a clock advance fires at most ${MAX_LATE_RUNS} late runs of a trigger in a row`);
      entry.late = 0;
      if (resume !== null) this.arm(world, key, entry, resume);
      return;
    }
    this.deliver({
      projectId: entry.projectId,
      branchId: entry.branchId,
      trigger: { id: trigger.id, name: trigger.name, type: "schedule", functionSlug: trigger.functionSlug, functionPath: trigger.functionPath },
      data: { scheduled_at: scheduledAtMinute(new Date(at)) },
    });
    const next = nextCronRun(entry.cron, at);
    if (next !== null) this.arm(world, key, entry, next);
  }
}
