import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ApiBranch, ApiProject, PlatformApi } from "../../../src/api/platform-api.js";
import { defineConfig } from "../../../src/kinds/list.js";
import { createBranch } from "../../../src/engine/create-branch.js";
import { computePairConflict } from "../../../src/kinds/compute/apply.js";
import { ErrorCode, isPlatformError } from "../../../src/errors/index.js";
import { policyWith } from "../../helpers/engine-state.js";

const project = (defaults?: { autoscaling_limit_min_cu?: number; autoscaling_limit_max_cu?: number }): ApiProject => ({
  id: "proj-1", name: "shop", region_id: "aws-us-east-2", pg_version: 17, ...(defaults ? { default_endpoint_settings: defaults } : {}),
});

describe("createBranch compute pre-check", () => {
  it.each([
    { name: "only a max below the project's default min", compute: { maxCu: 2 }, defaults: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 8 }, conflict: { field: "autoscalingLimitMaxCu", desired: { autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 2 } } },
    { name: "only a min that widens the default range past 8 CU", compute: { minCu: 0.25 }, defaults: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 12 }, conflict: { field: "autoscalingLimitMinCu", desired: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 12 } } },
    { name: "only a max that stays valid with the default min", compute: { maxCu: 4 }, defaults: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 }, conflict: undefined },
    { name: "one bound when the project has no default compute", compute: { maxCu: 2 }, defaults: undefined, conflict: undefined },
    { name: "no bound", compute: { suspendTimeoutSeconds: 300 }, defaults: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 8 }, conflict: undefined },
  ])("checks $name", ({ compute, defaults, conflict }) => {
    const found = computePairConflict(policyWith({ branch: { compute } }), project(defaults), "preview-1");
    if (conflict === undefined) expect(found).toBeUndefined();
    else expect(found).toMatchObject({ kind: "compute", identifier: "preview-1", code: "COMPUTE_PAIR_INVALID", blocking: true, ...conflict });
  });
});

const branch = (id: string, name: string, isDefault = false): ApiBranch => ({ id, name, default: isDefault, protected: false, created_at: "2026-01-01T00:00:00Z" });

/**
 * A platform whose project and branch reads answer only once bundling has begun, so a
 * createBranch that bundled after its reads would never get past them.
 */
function platformAwaitingBundling(branches: ApiBranch[]) {
  const order: string[] = [];
  let bundlingBegan: () => void = () => undefined;
  const began = new Promise<void>((resolve) => (bundlingBegan = resolve));
  const created: string[] = [];
  const api = {
    getProject: async () => (await began, order.push("project read"), project()),
    listBranches: async () => (await began, order.push("branches read"), branches),
    createBranch: async (p: { branch?: { name?: string } }) => {
      created.push(p.branch?.name ?? "?");
      throw new Error("not expected in this test");
    },
  } as unknown as PlatformApi;
  const bundleFunction = async (): Promise<Uint8Array> => {
    order.push("bundle started");
    bundlingBegan();
    throw new Error("esbuild stand-in failed");
  };
  return { api, order, created, bundleFunction };
}

describe("createBranch bundling", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-create-branch-"));
  mkdirSync(join(dir, "fn"), { recursive: true });
  writeFileSync(join(dir, "fn", "index.mjs"), "export default async () => new Response('hi');\n");
  const config = (parent?: string) => defineConfig({
    functions: { hello: { name: "Hello", source: "./fn", bundler: "none" } },
    ...(parent === undefined ? {} : { branch: () => ({ parent }) }),
  });

  it.each([
    { name: "a taken name wins over a failed bundle", branches: [branch("br-main", "main", true), branch("br-taken", "preview-1")], parent: undefined, code: ErrorCode.CONFLICT },
    { name: "a missing parent wins over a failed bundle", branches: [branch("br-main", "main", true)], parent: "staging", code: ErrorCode.BRANCH_NOT_FOUND },
    { name: "a failed bundle is reported once the target checks pass", branches: [branch("br-main", "main", true)], parent: undefined, code: ErrorCode.BUNDLE_FAILED },
  ])("starts bundling while the reads are in flight; $name, and nothing is created", async ({ branches, parent, code }) => {
    const platform = platformAwaitingBundling(branches);
    const err = await createBranch(config(parent), { projectId: "proj-1", branchName: "preview-1", api: platform.api, baseDir: dir, bundleFunction: platform.bundleFunction }).catch((e: unknown) => e);
    expect(platform.order[0]).toBe("bundle started");
    expect(platform.order.slice(1).sort()).toEqual(["branches read", "project read"]);
    expect(isPlatformError(err, code)).toBe(true);
    expect(platform.created).toEqual([]);
  });
});
