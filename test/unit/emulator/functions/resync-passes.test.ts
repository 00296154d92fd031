/**
 * The functions' resync passes that find most records as they were: the schedule deadlines and the
 * front door's listeners must follow every change a full walk would see.
 */
import { afterEach, describe, expect, it } from "vitest";
import { deployFunction } from "../../../../src/emulator/engine/deployments.js";
import { createTrigger } from "../../../../src/emulator/engine/triggers.js";
import type { DeliveryTarget } from "../../../../src/emulator/functions/deliveries.js";
import { FrontDoor, type FrontDoorOptions } from "../../../../src/emulator/functions/front-door.js";
import { LiveFunctions } from "../../../../src/emulator/functions/live-functions.js";
import { ScheduleFiring } from "../../../../src/emulator/functions/schedules.js";
import type { TriggerRec } from "../../../../src/emulator/store/records.js";
import { ARCHIVE, type UnitWorld, unitWorld } from "../unit-world.js";

const MINUTE = 60_000;

/** A world with functions `a` and `b`, each with an every-minute schedule trigger, and the firing that follows it. */
function scheduled(): { w: UnitWorld; firing: ScheduleFiring; fired: string[]; triggers: TriggerRec[]; minute: () => void } {
  const w = unitWorld();
  const fired: string[] = [];
  const firing = new ScheduleFiring((target: DeliveryTarget) => fired.push(target.trigger.name), () => undefined);
  const triggers = ["a", "b"].map((slug) => {
    deployFunction(w.world, w.main, slug, { archive: ARCHIVE });
    return createTrigger(w.world, w.project, w.main, { type: "schedule", cron: "* * * * *", functionSlug: slug, name: `every-${slug}` });
  });
  const minute = (): void => {
    w.world.clock.advance(MINUTE);
    w.world.scheduler.materialize(w.world.clock.now());
  };
  return { w, firing, fired, triggers, minute };
}

describe("schedule triggers across resync passes", () => {
  it("fires each trigger once a minute however many passes find it unchanged", () => {
    const { w, firing, fired, minute } = scheduled();
    for (let i = 0; i < 5; i++) firing.sync(w.world);
    minute();
    expect(fired.sort()).toEqual(["every-a", "every-b"]);
    for (let i = 0; i < 5; i++) firing.sync(w.world);
    minute();
    expect(fired).toHaveLength(4);
  });

  it("arms again a trigger disabled for one pass and enabled in the next, as the same record", () => {
    const { w, firing, fired, triggers, minute } = scheduled();
    firing.sync(w.world);
    const [a] = triggers;
    if (a === undefined) throw new Error("no trigger");
    a.enabled = false;
    firing.sync(w.world);
    minute();
    expect(fired).toEqual(["every-b"]);
    a.enabled = true;
    firing.sync(w.world);
    minute();
    expect(fired.slice(1).sort()).toEqual(["every-a", "every-b"]);
  });

  it("follows a cron changed in place (a new version) and a record replaced by a copy under the same id", () => {
    const { w, firing, fired, triggers, minute } = scheduled();
    firing.sync(w.world);
    const [a, b] = triggers;
    if (a === undefined || b === undefined) throw new Error("no trigger");
    // Due only at minute 30 of each hour from now on: not in the next minute.
    a.cron = "30 * * * *";
    a.version += 1;
    w.main.triggers.set(b.id, { ...b });
    firing.sync(w.world);
    minute();
    expect(fired).toEqual(["every-b"]);
  });

  it("forgets the triggers of a deleted project", () => {
    const { w, firing, fired, minute } = scheduled();
    firing.sync(w.world);
    w.project.deletedAt = w.world.clock.now();
    firing.sync(w.world);
    minute();
    expect(fired).toEqual([]);
  });
});

describe("the front door across resync passes", () => {
  let door: FrontDoor | undefined;
  afterEach(async () => {
    await door?.close();
    door = undefined;
  });

  /** A front door whose listeners are opened and closed, never asked to serve. */
  function frontDoor(w: UnitWorld): FrontDoor {
    const unused = {} as FrontDoorOptions["runner"] & FrontDoorOptions["log"] & FrontDoorOptions["faults"];
    door = new FrontDoor({ host: "127.0.0.1", urlHost: "127.0.0.1", world: () => w.world, runner: unused, log: unused, faults: unused, timeoutMs: 1_000 });
    return door;
  }

  it("closes a listener opened outside a pass when the next pass is given the same map", async () => {
    const w = unitWorld();
    deployFunction(w.world, w.main, "a", { archive: ARCHIVE });
    const live = new LiveFunctions();
    const fd = frontDoor(w);
    const map = live.of(w.world);
    const [key = ""] = map.keys();
    await fd.sync(map);
    expect(fd.urlOf(key)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const stray = `${w.project.id}/${w.main.id}/gone`;
    await fd.ensureUrl(stray);
    expect(fd.urlOf(stray)).toBeDefined();
    expect(live.of(w.world)).toBe(map);
    await fd.sync(map);
    expect(fd.urlOf(stray)).toBeUndefined();
    expect(fd.urlOf(key)).toBeDefined();
  });

  it("opens and closes listeners as the map changes", async () => {
    const w = unitWorld();
    const live = new LiveFunctions();
    const fd = frontDoor(w);
    deployFunction(w.world, w.main, "a", { archive: ARCHIVE });
    await fd.sync(live.of(w.world));
    deployFunction(w.world, w.main, "b", { archive: ARCHIVE });
    const both = live.of(w.world);
    await fd.sync(both);
    expect([...both.keys()].map((k) => fd.urlOf(k) !== undefined)).toEqual([true, true]);
    await fd.sync(new Map());
    expect([...both.keys()].map((k) => fd.urlOf(k))).toEqual([undefined, undefined]);
  });
});
