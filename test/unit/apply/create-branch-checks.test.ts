import { describe, expect, it } from "vitest";
import type { ApiProject } from "../../../src/api/platform-api.js";
import { computePairConflict } from "../../../src/engine/create-branch.js";
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
