/**
 * What a handler sends is what the plan shows: every planned value of a change (typed, what its
 * handler sends) is in the change's `after` under its plan key, for every operation that plans
 * values, on plans of a fresh branch and of a drifted one.
 */
import { describe, expect, it } from "vitest";
import { AUTH_FIELDS } from "../../../src/kinds/auth/fields.js";
import { BRANCH_SETTINGS } from "../../../src/kinds/branch/fields.js";
import { BUCKET_FIELDS } from "../../../src/kinds/bucket/fields.js";
import { COMPUTE_SETTINGS } from "../../../src/kinds/compute/fields.js";
import { DATA_API_SETTINGS } from "../../../src/kinds/dataApi/fields.js";
import { DATABASE_FIELDS } from "../../../src/kinds/database/fields.js";
import { DOMAIN_FIELDS } from "../../../src/kinds/domain/fields.js";
import { FUNCTION_FIELDS } from "../../../src/kinds/function/fields.js";
import { diffState } from "../../../src/kinds/modules.js";
import { ROLE_FIELDS } from "../../../src/kinds/role/fields.js";
import { triggerFields } from "../../../src/kinds/trigger/fields.js";
import type { ResolvedPolicy } from "../../../src/model/desired-state.js";
import type { ResolvedTrigger } from "../../../src/kinds/trigger/fields.js";
import { type FieldDescriptor, planKeyOf } from "../../../src/model/kinds/field.js";
import type { LiveState } from "../../../src/model/live-state.js";
import type { OpType, OperationChange, PlannedChange, PlannedOf } from "../../../src/model/planned-change.js";
import { NOW, fnWith, liveFn, liveWith, policyWith, tagWith } from "../../helpers/engine-state.js";

/** The planned model values under their plan keys: what `after` must show. */
function underPlanKeys(fields: readonly FieldDescriptor[], planned: object): Record<string, unknown> {
  const values: Readonly<Record<string, unknown>> = { ...planned };
  return Object.fromEntries(fields.filter((f) => values[f.modelKey] !== undefined).map((f) => [planKeyOf(f), values[f.modelKey]]));
}

/** Where each operation that plans values shows them in its change's `after`. */
const SHOWN: { [T in OpType]?: (planned: PlannedOf<T>) => Record<string, unknown> } = {
  "branch-update": (p) => underPlanKeys(BRANCH_SETTINGS, p),
  "compute-update": (p) => underPlanKeys(COMPUTE_SETTINGS, p),
  "auth-create": (p) => underPlanKeys(AUTH_FIELDS, p),
  "data-api-create": (p) => ({ settings: underPlanKeys(DATA_API_SETTINGS, p) }),
  "data-api-update": (p) => ({ settings: underPlanKeys(DATA_API_SETTINGS, p) }),
  "bucket-create": (p) => underPlanKeys(BUCKET_FIELDS, p),
  "role-create": (p) => underPlanKeys(ROLE_FIELDS, p),
  "database-create": (p) => underPlanKeys(DATABASE_FIELDS, p),
  "database-update": (p) => underPlanKeys(DATABASE_FIELDS, p),
  "domain-create": (p) => underPlanKeys(DOMAIN_FIELDS, p),
  "domain-replace": (p) => underPlanKeys(DOMAIN_FIELDS, p),
  "function-deploy": (p) => underPlanKeys(FUNCTION_FIELDS, p),
  "trigger-create": (p) => ({ type: p.type, ...underPlanKeys(triggerFields(p.type), p) }),
  "trigger-update": (p) => ({ type: p.type, ...underPlanKeys(triggerFields(p.type), p) }),
};

function shownOf<T extends OpType>(type: T, { planned }: OperationChange<T>): Record<string, unknown> | undefined {
  return SHOWN[type]?.(planned);
}

const TAG = tagWith("C0DE", "C0F1");
const plan = (desired: ResolvedPolicy, live: LiveState): PlannedChange[] =>
  diffState(desired, live, { now: NOW, functionTags: new Map([["hello", TAG]]), allowDataLoss: false }).changes;

const schedule: ResolvedTrigger = { name: "tick", type: "schedule", function: "hello", cron: "*/5 * * * *", functionPath: "/", enabled: true };
const upload: ResolvedTrigger = { name: "uploads", type: "storage_object_created", function: "hello", bucket: "avatars", functionPath: "/on-upload", enabled: true };
const desired = policyWith({
  branch: { protected: true, ttlSeconds: 7 * 86_400, compute: { maxCu: 4, suspendTimeoutSeconds: -1 } },
  auth: "enabled",
  dataApi: { state: "enabled", database: "neondb", authProvider: "builtin", settings: { dbSchemas: ["api"], dbMaxRows: 10 } },
  buckets: [{ name: "avatars", access: "public_read" }],
  roles: [{ name: "app_owner", login: true }, { name: "reader", login: false }],
  databases: [{ name: "appdb", owner: "app_owner" }],
  functions: [fnWith("hello", { name: "Hello", customDomains: ["hello.example.com"] })],
  triggers: [schedule, upload],
});

const fresh = liveWith({ roles: [], databaseOwners: new Map(), auth: { enabled: false }, buckets: [], functions: [], triggers: [], customDomains: [] });
const drifted = liveWith({
  roles: [{ name: "app_owner", login: true, protected: false }, { name: "reader", login: false, protected: false }],
  databases: ["neondb", "appdb"],
  databaseOwners: new Map([["appdb", "reader"]]),
  auth: { enabled: true, databaseName: "neondb" },
  dataApi: { enabled: true, database: "neondb", settings: { dbSchemas: ["public"], dbMaxRows: 10 } },
  buckets: [{ name: "avatars", access: "public_read" }],
  functions: [liveFn("hello", TAG), liveFn("other", TAG)],
  triggers: [{ id: "t1", name: "tick", type: "schedule", function: "hello", cron: "0 * * * *", functionPath: "/", enabled: true, inherited: false }],
  customDomains: [{ domain: "hello.example.com", entityType: "function", entityId: "other", cnameTarget: "edge.test" }],
});

describe("the planned values of a change", () => {
  it.each([
    { name: "a fresh branch", live: fresh },
    { name: "a drifted branch", live: drifted },
  ])("are all shown in its after, on the plan of $name", ({ live }) => {
    const changes = plan(desired, live).filter((c) => SHOWN[c.op.type] !== undefined);
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect({ id: c.change.id, after: c.change.after }).toMatchObject({ id: c.change.id, after: shownOf(c.op.type, c) });
  });

  it("are planned by every operation the table covers, across the two plans", () => {
    const types = new Set<string>([...plan(desired, fresh), ...plan(desired, drifted)].map((c) => c.op.type));
    expect(Object.keys(SHOWN).filter((type) => !types.has(type))).toEqual([]);
  });
});
