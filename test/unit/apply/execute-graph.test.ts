import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import type { PlatformApi } from "../../../src/api/platform-api.js";
import { executePlan } from "../../../src/apply/execute-plan.js";
import type { ExecutionContext } from "../../../src/apply/execution-context.js";
import type { EngineEvent } from "../../../src/model/events.js";
import { makeChange } from "../../../src/diff/change-builder.js";
import { orderChanges } from "../../../src/diff/order-changes.js";
import { rankOf } from "../../../src/kinds/list.js";
import type { PlannedChange } from "../../../src/model/planned-change.js";
import { isPlatformError } from "../../../src/errors/index.js";
import { policyWith } from "../../helpers/engine-state.js";
import { KIND_HANDLERS } from "../../../src/kinds/modules.js";

const bucket = (name: string, dependsOn: string[] = []): PlannedChange =>
  makeChange({ address: `bucket.${name}`, kind: "bucket", action: "create", class: "additive", fields: ["*"], before: null, after: { access: "private" }, reason: "", dependsOn, op: { type: "bucket-create", name }, planned: { access: "private" } });

/** An instant platform that creates buckets (failing the names in `failing`) and records the order of creation. */
function bucketPlatform(failing: ReadonlySet<string> = new Set()) {
  const created: string[] = [];
  const api = {
    createBucket: async (p: { name: string }) => {
      if (failing.has(p.name)) throw new Error(`bucket ${p.name} refused`);
      created.push(p.name);
      return { name: p.name, access_level: "private" };
    },
  } as unknown as PlatformApi;
  const events: EngineEvent[] = [];
  const ctx: ExecutionContext = {
    api, projectId: "proj-1", branchId: "br-main-1", branchName: "main", desired: policyWith(), withArchive: (_slug, send) => send(new Uint8Array()),
    request: pLimit(8), emit: (e) => events.push(e), timing: { deploymentMs: 60_000, pollInitialMs: 1, pollMaxMs: 2 },
    sleep: async () => {}, now: Date.now, functionMarkers: async (slug) => [`SVC_FINGERPRINT_C0DE_${slug.toUpperCase()}`], handlers: KIND_HANDLERS,
    builds: { wait: () => Promise.reject(new Error("no builds in this test")) },
  };
  return { ctx, created, events };
}

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("executePlan checks its graph", () => {
  it("skips B and C when A fails in the chain A → B → C, naming A as the root cause", async () => {
    const { ctx, created } = bucketPlatform(new Set(["a"]));
    const outcome = await executePlan([bucket("a"), bucket("b", ["create:bucket.a"]), bucket("c", ["create:bucket.b"]), bucket("d")], ctx);
    expect(outcome.failed.map((f) => [f.change.id, f.error.message])).toEqual([["create:bucket.a", "bucket a refused"]]);
    expect(outcome.skipped.map((s) => [s.change.id, s.blockedBy, s.reason])).toEqual([
      ["create:bucket.b", "create:bucket.a", "dependency create:bucket.a failed"],
      ["create:bucket.c", "create:bucket.a", "dependency create:bucket.a failed"],
    ]);
    expect(created).toEqual(["d"]);
  });

  it("reports a dependency on a change outside the plan as an error before sending anything", async () => {
    const { ctx, created } = bucketPlatform();
    const err = await rejection(() => executePlan([bucket("a"), bucket("b", ["create:bucket.gone"])], ctx));
    expect(isPlatformError(err, "PLATFORM_INVALID_OPTIONS")).toBe(true);
    expect((err as Error).message).toContain("create:bucket.b depends on create:bucket.gone, which is not in the plan");
    expect(created).toEqual([]);
  });

  it("reports a cycle as an error naming its changes before sending anything, never hanging", async () => {
    const { ctx, created } = bucketPlatform();
    const err = await rejection(() => executePlan([bucket("free"), bucket("a", ["create:bucket.c"]), bucket("b", ["create:bucket.a"]), bucket("c", ["create:bucket.b"])], ctx));
    expect(isPlatformError(err, "PLATFORM_INVALID_OPTIONS")).toBe(true);
    expect((err as Error).message).toContain("cycle among create:bucket.a, create:bucket.b, create:bucket.c");
    expect(created).toEqual([]);
  });
});

describe("a 20,000-change plan", () => {
  it("is ordered and walked with every change after its dependencies", async () => {
    const n = 20_000;
    // A binary tree whose names run against the tie-break (children sort before their parents).
    const name = (i: number): string => `b${String(n - i).padStart(6, "0")}`;
    const changes = Array.from({ length: n }, (_, i) => bucket(name(i), i === 0 ? [] : [`create:bucket.${name((i - 1) >> 1)}`]));
    const ordered = orderChanges([...changes].reverse(), rankOf);
    const position = new Map(ordered.map((c, i) => [c.change.id, i]));
    expect(ordered).toHaveLength(n);
    expect(ordered.every((c, i) => c.change.dependsOn.every((d) => (position.get(d) ?? n) < i))).toBe(true);

    const { ctx, created } = bucketPlatform();
    const outcome = await executePlan(ordered, ctx);
    expect(outcome.applied).toHaveLength(n);
    const createdAt = new Map(created.map((b, i) => [`create:bucket.${b}`, i]));
    expect(ordered.every((c) => c.change.dependsOn.every((d) => (createdAt.get(d) ?? n) < (createdAt.get(c.change.id) ?? -1)))).toBe(true);
  });
});
