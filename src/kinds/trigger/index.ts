/** The trigger kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { TriggerOperations, TriggerLiveFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { type PulledTrigger, triggerPull } from "./pull.js";
import { type TriggerPolicyKeys, type TriggerResolvedFields, triggerPolicy } from "./policy.js";

/** Triggers (`triggers`): cron schedules and bucket events that call a function. */
export const triggerKind: KindLight<"trigger"> = {
  name: "trigger",
  scope: "named",
  feature: "triggers",
  prunedByName: true,
  policy: triggerPolicy,
  pull: triggerPull,
  stages: async () => (await import("./stages.js")).triggerStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: triggers. */
    trigger: { scope: "named"; operations: TriggerOperations; liveFields: TriggerLiveFields; feature: "triggers"; prunedByName: true;
      preview: { triggers: PulledTrigger[] };
      resolvedFields: TriggerResolvedFields;
      policy: { keys: TriggerPolicyKeys; prune: { triggers?: boolean } };
    };
  }
}
