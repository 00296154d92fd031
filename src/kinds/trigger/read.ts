/** Trigger records → the live state's triggers: the trigger kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiTrigger } from "../../api/wire-types.js";
import { normalizeCron, sortBy } from "../../inspect/normalize.js";
import { type LiveTrigger, triggerFromWire } from "./fields.js";

/** Triggers sorted by name: the descriptor's fields (`fields.ts`), cron whitespace collapsed. */
export function normalizeTriggers(triggers: readonly ApiTrigger[]): LiveTrigger[] {
  return sortBy(
    triggers.map((t) => {
      const fields = triggerFromWire(t, t.type) as Partial<LiveTrigger>;
      return {
        id: t.trigger_id,
        name: t.name,
        type: t.type,
        ...fields,
        inherited: t.inherited,
        ...(fields.cron === undefined ? {} : { cron: normalizeCron(fields.cron) }),
      } as LiveTrigger;
    }),
    (t) => t.name,
  );
}

/** The trigger kind's read: the triggers when the policy declares some or states their prune flag; the buckets too for a storage trigger (its bucket must exist). */
export const triggerRead: KindRead<LiveContributionOf<"trigger">> = {
  pull: { needs: { triggers: true } },
  needs: ({ triggers, prune, pruneStated }) => ({
    ...(triggers.length > 0 || prune.triggers || pruneStated.triggers ? { triggers: true } : {}),
    ...(triggers.some((t) => t.type === "storage_object_created") ? { buckets: true } : {}),
  }),
  slice: ({ triggers }) => (triggers === undefined ? {} : { triggers: normalizeTriggers(triggers) }),
};
