/** The trigger kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { TriggerOperations, TriggerLiveFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { type PulledTrigger, triggerPull } from "./pull.js";

/** Triggers (`triggers`): cron schedules and bucket events that call a function. */
export const triggerKind: KindLight<"trigger"> = {
  name: "trigger",
  scope: "named",
  feature: "triggers",
  prunedByName: true,
  pull: triggerPull,
  stages: async () => (await import("./stages.js")).triggerStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: triggers. */
    trigger: { scope: "named"; operations: TriggerOperations; liveFields: TriggerLiveFields; feature: "triggers"; prunedByName: true;
      preview: { triggers: PulledTrigger[] };
    };
  }
}
