/**
 * The triggers of a pulled branch in policy form, read through their descriptor
 * (`fields.ts`). A pulled policy cannot declare them (they may only name declared
 * functions, and functions have no source to pull), so the pull lists them for the user to
 * declare next to the functions they call. Pure.
 */
import type { ApiTrigger } from "../../api/wire-types.js";
import type { TriggerDef } from "./policy.js";
import { type KindPull, commentSection } from "../../inspect/kind-pull.js";
import { sameFieldValue } from "../../model/kinds/field.js";
import { TRIGGER_DEFAULTS, isTriggerType, triggerFields } from "./fields.js";
import { normalizeTriggers } from "./read.js";

/** A trigger of the branch as `triggers` would declare it, with its name. */
export type PulledTrigger = { name: string } & TriggerDef;

/**
 * The branch's own triggers (inherited ones belong to the parent's policy) of a type a policy
 * can declare, sorted by name; pulled fields whose value is the default are left out.
 */
export function pulledTriggers(triggers: readonly ApiTrigger[]): PulledTrigger[] {
  const defaults: Readonly<Record<string, unknown>> = TRIGGER_DEFAULTS;
  return normalizeTriggers(triggers)
    .filter((t) => !t.inherited && isTriggerType(t.type))
    .map((t) => {
      const values: Readonly<Record<string, unknown>> = { ...t };
      const fields = triggerFields(t.type).filter((f) => f.pulled && values[f.modelKey] !== undefined && !sameFieldValue(f, values[f.modelKey], defaults[f.modelKey]));
      // The descriptor's fields of a known type are exactly the keys of its `TriggerDef`.
      return { name: t.name, type: t.type, ...Object.fromEntries(fields.map((f) => [f.policyKey, values[f.modelKey]])) } as PulledTrigger;
    });
}

/**
 * Triggers are listed in `preview.triggers` and commented on as `triggers` entries to declare;
 * `prune.triggers` is stated when the branch has any (inherited ones included).
 */
export const triggerPull = {
  preview: (records) => ({ triggers: pulledTriggers(records.triggers) }),
  prune: { key: "triggers", live: (records) => records.triggers.length },
  comments: (preview, text) =>
    commentSection(
      "Triggers on this branch (declare them under `triggers`, with the functions they call, to manage them):",
      (preview.triggers ?? []).map(({ name, ...definition }) => `  ${text.key(name)}: ${text.inline(definition)},`),
    ),
} satisfies KindPull;
