/**
 * A kind no source file knows, with a pull stage: `unnamedReplicas` in the branch tuning states how
 * many read-only endpoints of the branch have no name; it is read from the endpoints, planned as
 * `gadget` when the policy's count differs, pulled as that key, and listed (each endpoint's id) in
 * a comment of the rendered svc.ts. Its static key `gadgets` (endpoint id → `true`) names the unnamed
 * endpoints the policy knows: one it names and the branch lacks is planned as a create, and with
 * its prune flag `prune.gadgets` those it does not name are planned as a delete. The test mocks the
 * registry's list to hold it first.
 */
import * as z from "zod";
import { kindTuning } from "../../../src/config/schemas/branch-tuning.js";
import { kindPolicy } from "../../../src/config/schemas/kind-policy.js";
import { makeChange } from "../../../src/diff/change-builder.js";
import type { KindPull } from "../../../src/inspect/kind-pull.js";
import type { KindRead } from "../../../src/inspect/read-live-state.js";
import type { DesiredSlices, KindPreviews, LiveSlices, ResourceKind } from "../../../src/kinds/index.js";
import type { LiveState } from "../../../src/model/live-state.js";
import type { KindDiff } from "../../../src/diff/plan-types.js";

// The types know only the kinds of src/ (their folders declare them); the mocked registry knows this one at run time,
// and its change borrows an operation of theirs (a plan runs no handler).
export const GADGET = "gadget" as ResourceKind;

interface Slices {
  gadget?: { count: number; ids?: string[] };
}

/** What its static policy adds to the resolved policy (the types of src/ do not know it either). */
interface GadgetFields {
  gadgetIds?: string[];
  prune: { gadgets?: boolean };
}

const unnamed = (endpoints: readonly { type: string; name?: string; id: string }[]): string[] =>
  endpoints.filter((e) => e.type === "read_only" && e.name === undefined).map((e) => e.id);

const pull: KindPull = {
  tuning: (records) => ({ unnamedReplicas: unnamed(records.endpoints).length }) as object,
  preview: (records) => ({ unnamedEndpoints: unnamed(records.endpoints) }) as Partial<KindPreviews>,
  comments: (preview, text) => {
    const ids = (preview as { unnamedEndpoints?: string[] }).unnamedEndpoints ?? [];
    return ids.length === 0 ? [] : ["Read-only endpoints without a name (name them to declare them under `readReplicas`):", ...ids.map((id) => `  ${text.literal(id)}`)];
  },
};

// No source of its own: wave 1 listed the endpoints.
const read: KindRead<Partial<LiveState>> = {
  slice: (_records, base) => ({ kinds: { gadget: { count: unnamed(base.endpoints).length, ids: unnamed(base.endpoints) } } as LiveSlices }),
};

/** The endpoints it names and the branch lacks (a create), and with `prune.gadgets` those it does not name (a delete). */
const diffNamed: KindDiff["diff"] = (desired, live, _options, sink) => {
  const { gadgetIds: known = [], prune } = desired as unknown as GadgetFields;
  const have = (live.kinds as Slices | undefined)?.gadget?.ids ?? [];
  const missing = known.filter((id) => !have.includes(id));
  const unknown = prune.gadgets === true ? have.filter((id) => !known.includes(id)) : [];
  const change = (action: "create" | "delete", ids: string[]) =>
    makeChange({
      address: "gadget", kind: GADGET, action, class: action === "create" ? "additive" : "destructive", fields: ["ids"],
      before: action === "create" ? null : { ids }, after: action === "create" ? { ids } : null,
      reason: action === "create" ? "the policy names endpoints the branch lacks" : "prune.gadgets: the policy does not name them", op: { type: "branch-update" }, planned: {},
    });
  if (missing.length > 0) sink.changes.push(change("create", missing));
  if (unknown.length > 0) sink.changes.push(change("delete", unknown));
};

const diff: KindDiff["diff"] = (desired, live, options, sink) => {
  diffNamed(desired, live, options, sink);
  const want = (desired.kinds as Slices | undefined)?.gadget?.count;
  const have = (live.kinds as Slices | undefined)?.gadget?.count ?? 0;
  if (want === undefined || want === have) return;
  sink.changes.push(
    makeChange({
      address: "gadget", kind: GADGET, action: "update", class: "override", fields: ["count"], before: { count: have }, after: { count: want },
      reason: `the policy counts ${want} unnamed read-only endpoints, the branch has ${have}`, op: { type: "branch-update" }, planned: {},
    }),
  );
};

/** Its stages, which the registry's modules load from its light module. */
const stages = { read, diff, handlers: {}, seed: () => ({}) } as const;

/** The gadget's light module as the mocked registry's list holds it. */
export const gadgetLight = {
  name: GADGET,
  scope: "branch",
  tuning: kindTuning({ unnamedReplicas: z.number().int().min(0).optional() }, (values) =>
    values.unnamedReplicas === undefined ? {} : { kinds: { gadget: { count: values.unnamedReplicas } } as DesiredSlices },
  ),
  // `gadgets` (endpoint id → true) after the kinds' keys; `prune.gadgets`, which `prune: true` sets.
  policy: kindPolicy({
    order: 90,
    keys: { gadgets: z.record(z.string(), z.literal(true)) },
    prune: { flag: "gadgets", order: 70 },
    resolve: ({ gadgets }) => ({ gadgetIds: Object.keys(gadgets ?? {}).sort() }),
  }),
  pull,
  stages: async () => stages,
} as const;
