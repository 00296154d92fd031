/** The trigger kind as the registry holds it: its diff, its handlers, and when a policy needs the triggers feature. */
import { applyTriggerCreate, applyTriggerDelete, applyTriggerUpdate } from "../../apply/handlers/triggers.js";
import { diffTriggers } from "../../diff/triggers.js";
import type { KindModule } from "../module.js";

/** Triggers (`triggers`): cron schedules and bucket events that call a function. */
export const triggerKind: KindModule<"trigger"> = {
  name: "trigger",
  diff: (desired, live, _options, sink) => diffTriggers(desired, live, sink),
  declares: (desired) => desired.triggers.length > 0,
  handlers: {
    "trigger-create": applyTriggerCreate,
    "trigger-update": applyTriggerUpdate,
    "trigger-delete": (ctx, _change, op) => applyTriggerDelete(ctx, op),
  },
};
