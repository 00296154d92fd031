/** Compute endpoints' domain functions on an in-memory world, without HTTP. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { checkComputeRange, createEndpoint, deleteEndpoint, findEndpoint, restartEndpoint, startEndpoint, suspendEndpoint, updateEndpoint } from "../../../src/emulator/engine/endpoints.js";
import { newBranchRecord } from "../../../src/emulator/engine/lifecycle.js";
import { createClock } from "../../../src/emulator/engine/clock.js";
import { createSeededRandom } from "../../../src/emulator/engine/random.js";
import { type SeedDocument, loadSeed, parseSeedDocument } from "../../../src/emulator/seed.js";
import { buildStateDocument } from "../../../src/emulator/state-document.js";
import { World } from "../../../src/emulator/store/world.js";
import { refusal, unitWorld, type UnitWorld } from "./unit-world.js";

const never = (): boolean => false;

describe("compute endpoints", () => {
  let w: UnitWorld;
  beforeEach(() => {
    w = unitWorld();
  });

  /** Runs every due operation. */
  const settle = (): void => {
    w.world.clock.advance(1);
    w.world.now();
  };

  it("creates a read_only endpoint with the project's default limits, active once start_compute ends", () => {
    const slow = unitWorld({ opRunMs: 1_000 });
    const defaults = slow.project.defaultEndpointSettings;
    const { endpoint, operations } = createEndpoint(slow.world, slow.project, { branch_id: slow.main.id, type: "read_only" }, never);
    expect([operations.map((o) => o.action), endpoint.currentState, endpoint.minCu, endpoint.maxCu]).toEqual([["start_compute"], "init", defaults.autoscaling_limit_min_cu ?? 0.25, defaults.autoscaling_limit_max_cu ?? 2]);
    slow.world.clock.advance(1_000);
    slow.world.now();
    expect([endpoint.currentState, findEndpoint(slow.project, endpoint.id)]).toEqual(["active", endpoint]);
  });

  it.each<[string, number, number, [string, string] | null]>([
    ["a fixed size", 4, 4, null],
    ["an autoscaling range", 1, 8, null],
    ["min above max", 4, 2, ["unprocessable", "unprocessable"]],
    ["a range wider than 8", 1, 10, ["unprocessable", "unprocessable"]],
    ["a limit above 16 when autoscaling", 10, 17, ["unprocessable", "unprocessable"]],
  ])("checks the compute range: %s", (_name, min, max, expected) => {
    expect(refusal(() => checkComputeRange(min, max, "endpoint"))).toEqual(expected);
  });

  it("refuses a second read_write endpoint on a branch, an unknown branch, and any change while the project is locked", () => {
    const child = newBranchRecord(w.world, w.project, { name: "child", parent: w.main });
    createEndpoint(w.world, w.project, { branch_id: child.id, type: "read_write" }, never);
    settle();
    expect(refusal(() => createEndpoint(w.world, w.project, { branch_id: child.id, type: "read_write" }, never))).toEqual(["conflict", "already_exists"]);
    expect(refusal(() => createEndpoint(w.world, w.project, { branch_id: "br-nope", type: "read_only" }, never))).toEqual(["not_found", "not_found"]);
    const slow = unitWorld({ opRunMs: 1_000 });
    createEndpoint(slow.world, slow.project, { branch_id: slow.main.id, type: "read_only" }, never);
    expect(refusal(() => createEndpoint(slow.world, slow.project, { branch_id: slow.main.id, type: "read_only" }, never))).toEqual(["locked", "locked"]);
  });

  it("updates settings with apply_config, and suspends an active endpoint it disables; a disabled endpoint cannot start", () => {
    const { endpoint } = createEndpoint(w.world, w.project, { branch_id: w.main.id, type: "read_only" }, never);
    settle();
    const { operations } = updateEndpoint(w.world, w.project, endpoint, { name: "replica", settings: { pg_settings: { work_mem: "8MB" } }, disabled: true }, never);
    expect([operations.map((o) => o.action), endpoint.name, endpoint.disabled]).toEqual([["apply_config", "suspend_compute"], "replica", true]);
    settle();
    expect(endpoint.currentState).toBe("idle");
    expect(refusal(() => startEndpoint(w.world, w.project, endpoint, never))).toEqual(["conflict", "conflict"]);
    expect(refusal(() => restartEndpoint(w.world, w.project, endpoint, never))).toEqual(["conflict", "conflict"]);
    expect(refusal(() => updateEndpoint(w.world, w.project, endpoint, { autoscaling_limit_min_cu: 8, autoscaling_limit_max_cu: 4 }, never))).toEqual(["unprocessable", "unprocessable"]);
  });

  it("records a skipped operation when the endpoint is already in the asked state, and restarts by suspend then start", () => {
    const { endpoint } = createEndpoint(w.world, w.project, { branch_id: w.main.id, type: "read_only" }, never);
    settle();
    expect(startEndpoint(w.world, w.project, endpoint, never).map((o) => [o.action, o.willSkip])).toEqual([["start_compute", true]]);
    settle();
    expect(restartEndpoint(w.world, w.project, endpoint, never).map((o) => o.action)).toEqual(["suspend_compute", "start_compute"]);
    settle();
    expect(endpoint.currentState).toBe("active");
    expect(suspendEndpoint(w.world, w.project, endpoint, never).map((o) => [o.action, o.willSkip])).toEqual([["suspend_compute", false]]);
    settle();
    expect([endpoint.currentState, suspendEndpoint(w.world, w.project, endpoint, never)[0]?.willSkip]).toEqual(["idle", true]);
  });

  it("deletes an active endpoint after suspending it, and deleting a missing one is a no-op", () => {
    const { endpoint } = createEndpoint(w.world, w.project, { branch_id: w.main.id, type: "read_only" }, never);
    settle();
    expect(deleteEndpoint(w.world, w.project, endpoint.id, never)?.operations.map((o) => o.action)).toEqual(["suspend_compute"]);
    expect([w.project.endpoints.has(endpoint.id), deleteEndpoint(w.world, w.project, endpoint.id, never)]).toEqual([false, undefined]);
    expect(refusal(() => findEndpoint(w.project, endpoint.id))).toEqual(["not_found", "not_found"]);
  });
});

describe("read-only endpoints in seeds and state documents", () => {
  /** The seed document docs/emulator.md shows (its first JSON block after "A seed document replaces it"). */
  const documentedSeed = (): unknown => {
    const doc = readFileSync(fileURLToPath(new URL("../../../docs/emulator.md", import.meta.url)), "utf8");
    const block = /A seed document replaces it[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    if (block === undefined) throw new Error("docs/emulator.md shows no seed document");
    return JSON.parse(block);
  };
  const worldOf = (seed: SeedDocument): World => {
    const world = new World(createClock(new Date("2026-11-20T12:00:00Z")), { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0, claimTransferMs: 0 }, createSeededRandom(7));
    loadSeed(world, seed);
    return world;
  };
  const replicasOf = (world: World): Record<string, unknown>[] =>
    [...world.projects.values()]
      .flatMap((p) => [...p.endpoints.values()])
      .filter((e) => e.type === "read_only")
      .map((e) => ({ id: e.id, name: e.name, state: e.currentState, minCu: e.minCu, maxCu: e.maxCu, suspendTimeoutSeconds: e.suspendTimeoutSeconds }));

  it("loads the documented seed's read replica with its name, limits and suspend timeout", () => {
    expect(replicasOf(worldOf(parseSeedDocument(documentedSeed()))).map(({ id: _id, ...rest }) => rest)).toEqual([
      { name: "analytics", state: "idle", minCu: 0.5, maxCu: 2, suspendTimeoutSeconds: 600 },
    ]);
  });

  it("keeps its id, name and settings through a state document used as a seed", () => {
    const world = worldOf(parseSeedDocument(documentedSeed()));
    const restored = worldOf(parseSeedDocument(buildStateDocument(world, true)));
    expect(replicasOf(restored)).toEqual(replicasOf(world));
  });
});
