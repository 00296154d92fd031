import { describe, expect, it } from "vitest";
import { deleteFunction, deployFunction, renameFunction } from "../../../../src/emulator/engine/deployments.js";
import { LiveFunctions } from "../../../../src/emulator/functions/live-functions.js";
import { ARCHIVE, unitWorld } from "../unit-world.js";

const keysOf = (map: ReadonlyMap<string, unknown>): string[] => [...map.keys()];

describe("the live functions of a world", () => {
  it("gives the last map again while the same function records are live, and a new one as soon as they change", () => {
    const w = unitWorld();
    const live = new LiveFunctions();
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE });
    const first = live.of(w.world);
    const prefix = `${w.project.id}/${w.main.id}/`;
    expect(keysOf(first)).toEqual([`${prefix}api`]);
    expect(first.get(`${prefix}api`)).toMatchObject({ project: w.project, branch: w.main, fn: w.main.functions.get("api") });

    // A new deployment and a rename change the record, not which records are live.
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE });
    renameFunction(w.main, "api", "Renamed");
    expect(live.of(w.world)).toBe(first);

    deployFunction(w.world, w.main, "web", { archive: ARCHIVE });
    const second = live.of(w.world);
    expect(keysOf(second)).toEqual([`${prefix}api`, `${prefix}web`]);

    // Deleted and created again under the same slug: another record, so another map.
    deleteFunction(w.world, w.project, w.main, "web");
    expect(keysOf(live.of(w.world))).toEqual([`${prefix}api`]);
    deployFunction(w.world, w.main, "web", { archive: ARCHIVE });
    const third = live.of(w.world);
    expect(third).not.toBe(second);
    expect(keysOf(third)).toEqual([`${prefix}api`, `${prefix}web`]);
    expect(third.get(`${prefix}web`)?.fn).toBe(w.main.functions.get("web"));
  });

  it("drops the functions of a deleted project", () => {
    const w = unitWorld();
    const live = new LiveFunctions();
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE });
    expect(live.of(w.world).size).toBe(1);
    w.project.deletedAt = w.world.clock.now();
    expect(live.of(w.world).size).toBe(0);
  });
});
