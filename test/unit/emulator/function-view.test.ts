import { describe, expect, it } from "vitest";
import { deployFunction } from "../../../src/emulator/engine/deployments.js";
import { functionView } from "../../../src/emulator/http/views.js";
import { ARCHIVE, unitWorld } from "./unit-world.js";

describe("a function's wire view", () => {
  it("shows the latest deployment as current and the newest built one as active, each with its own fields", () => {
    const w = unitWorld();
    const view = () => JSON.parse(JSON.stringify(functionView(w.world, w.project, w.main, w.main.functions.get("api")!))) as Record<string, { id: number; status: string } | undefined>;
    deployFunction(w.world, w.main, "api", { archive: ARCHIVE, environment: { B: "2", A: "1" } });
    expect([view().current_deployment?.status, view().active_deployment]).toEqual(["pending", undefined]);

    w.world.clock.set(w.world.clock.now() + 400);
    w.world.now();
    const built = view();
    expect([built.current_deployment, built.current_deployment?.status]).toEqual([built.active_deployment, "completed"]);
    expect(built.active_deployment).toMatchObject({ id: 1, environment: ["A", "B"] });

    deployFunction(w.world, w.main, "api", { environment: { C: "3" } });
    const next = view();
    expect([next.current_deployment?.id, next.current_deployment?.status, next.active_deployment?.id]).toEqual([2, "pending", 1]);
    expect(next.current_deployment).toMatchObject({ environment: ["A", "B", "C"] });
    expect(next.active_deployment).toMatchObject({ environment: ["A", "B"] });
  });
});
