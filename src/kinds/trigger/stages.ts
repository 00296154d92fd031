/** The trigger kind's stages: its diff, its handlers, and when a policy needs the triggers feature. */
import type { BranchSeed } from "../../api/wire/replica-seed.js";
import { toWire } from "../../model/kinds/field.js";
import { type LiveTrigger, triggerFields } from "./fields.js";
import { applyTriggerCreate, applyTriggerDelete, applyTriggerUpdate } from "./apply.js";
import { diffTriggers } from "./diff.js";
import type { KindStages } from "../module.js";
import { triggerRead } from "./read.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const triggerStages: KindStages<"trigger"> = {
  read: triggerRead,
  compared: (live) => ({ triggers: live.triggers }),
  diff: (desired, live, _options, sink) => diffTriggers(desired, live, sink),
  declares: (desired) => desired.triggers.length > 0,
  handlers: {
    "trigger-create": (ctx, _change, op, planned) => applyTriggerCreate(ctx, op, planned),
    "trigger-update": (ctx, _change, op, planned) => applyTriggerUpdate(ctx, op, planned),
    "trigger-delete": (ctx, _change, op) => applyTriggerDelete(ctx, op),
  },
  // The branch's own triggers; inherited ones sit on the stand-in parent.
  seed: (live) => ({
    branch: { triggers: (live.triggers ?? []).filter((t) => !t.inherited).map(triggerSeed) },
    parent: { triggers: (live.triggers ?? []).filter((t) => t.inherited).map(triggerSeed) },
  }),
};

/** A trigger in the seed's flat form: its descriptor's fields in wire names, the type's own beside the common ones. */
function triggerSeed(t: LiveTrigger): NonNullable<BranchSeed["triggers"]>[number] {
  const type = t.type === "storage_object_created" ? "storage_object_created" : "schedule";
  // The seed's keys are the descriptor's wire keys; the live trigger holds every required field.
  return { id: t.id, name: t.name, type, ...toWire(triggerFields(t.type), { ...t }) } as NonNullable<BranchSeed["triggers"]>[number];
}
