/** Trigger records → the live state's triggers. Pure. */
import type { ApiTrigger } from "../../api/wire-types.js";
import { normalizeCron, sortBy } from "../../inspect/normalize.js";
import type { LiveTrigger } from "../../model/live-state.js";
import { triggerFromWire } from "./fields.js";

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
