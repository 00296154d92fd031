import { describe, expect, it } from "vitest";
import type { ApiBranch, ApiEndpoint, ApiProject } from "../../../src/api/wire-types.js";
import { buildPulledBranchConfig, type KindPull, type PulledBranchRecords } from "../../../src/inspect/pulled-config.js";
import { renderPolicySourceWith } from "../../../src/inspect/render-policy-source.js";
import { POLICY_KINDS, renderPolicySource } from "../../../src/kinds/list.js";
import type { BranchTarget, BranchTuning } from "../../../src/v1.js";
import { loadRoutes } from "./fixture-platform.js";

const PROJECT_PATH = "GET /api/v2/projects/calm-river-123456";
const BRANCH_PATH = `${PROJECT_PATH}/branches/br-preview-654321`;
const routes = loadRoutes("full-branch");
const records: PulledBranchRecords = {
  project: (routes[PROJECT_PATH] as { project: ApiProject }).project,
  branch: (routes[BRANCH_PATH] as { branch: ApiBranch }).branch,
  branches: (routes[`${PROJECT_PATH}/branches`] as { branches: ApiBranch[] }).branches,
  endpoints: (routes[`${BRANCH_PATH}/endpoints`] as { endpoints: ApiEndpoint[] }).endpoints,
  roles: [], databases: [], auth: null, dataApi: null, buckets: [], functions: [], credentials: [], triggers: [], customDomains: [],
};

// A kind no source file knows pulls `widgets`: one per endpoint the branch lists.
const widgets: KindPull = { tuning: (pulled) => ({ widgets: pulled.endpoints.length }) as BranchTuning };

const tuningOf = (branch: unknown, target: BranchTarget): unknown => (branch as (t: BranchTarget) => unknown)(target);

describe("a kind's keys of a pulled branch tuning", () => {
  it("are in the pulled closure's tuning for the kind of branch it was pulled from, and in the rendered svc.ts", () => {
    const pulled = buildPulledBranchConfig(records, [widgets], POLICY_KINDS);
    const target = { name: records.branch.name, exists: true, isDefault: records.branch.default };
    expect(tuningOf(pulled.config.branch, target)).toMatchObject({ widgets: records.endpoints.length });
    expect(records.endpoints.length).toBeGreaterThan(0);
    expect(renderPolicySource(pulled)).toContain(`widgets: ${records.endpoints.length},`);
  });

  it("are absent without the kind", () => {
    const pulled = buildPulledBranchConfig(records, [], POLICY_KINDS);
    expect(tuningOf(pulled.config.branch, { name: records.branch.name, exists: true, isDefault: records.branch.default })).not.toHaveProperty("widgets");
    expect(renderPolicySource(pulled)).not.toContain("widgets");
  });
});

describe("a kind's comment lines in the rendered svc.ts", () => {
  // What a kind may say of a live name: a line break, U+2028 and a bidi override could end the comment or hide code.
  const hostile = "x\u2028process.exit(1)//\n\u202e";
  const talker: KindPull = { comments: (_preview, text) => [`raw ${hostile}`, `literal ${text.literal(hostile)}`, `key ${text.key(hostile)}: ${text.inline({ name: hostile })}`] };

  it("come after the policy, each commented out and escaped, whatever the kind writes into them", () => {
    const source = renderPolicySourceWith([talker], POLICY_KINDS.keyOrder, buildPulledBranchConfig(records, [], POLICY_KINDS));
    const tail = source.slice(source.indexOf("});\n") + 4).split("\n").filter((line) => line !== "");
    expect(tail).toHaveLength(3);
    expect(tail.every((line) => line.startsWith("// "))).toBe(true);
    expect(source).not.toMatch(/[\u2028\u202e]/);
    expect(source.split("\n").filter((line) => line.includes("process.exit")).every((line) => line.startsWith("//"))).toBe(true);
  });
});
