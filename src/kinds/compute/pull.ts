/** Compute in a pulled config: the settings of the read-write compute that differ from the project's defaults. Pure. */
import type { ApiEndpoint, ApiProject } from "../../api/wire-types.js";
import { policyValueOf } from "../../config/schemas/fields.js";
import type { KindPull } from "../../inspect/kind-pull.js";
import type { ComputeSettings } from "./policy.js";
import { COMPUTE_SETTINGS } from "./fields.js";
import { defaultComputeOf, normalizeCompute } from "./read.js";

/**
 * `postgres.computeSettings` as a pull declares it: each pulled setting whose value differs from
 * the project's default, in its policy form; values a policy cannot state are left out.
 * `undefined` without a read-write compute or without a setting to declare.
 */
export function pulledComputeSettings(endpoints: readonly ApiEndpoint[], project: ApiProject): ComputeSettings | undefined {
  const compute = normalizeCompute(endpoints);
  if (compute === null) return undefined;
  const defaults = defaultComputeOf(project);
  const settings: Record<string, unknown> = {};
  for (const field of COMPUTE_SETTINGS.filter((f) => f.pulled && compute[f.modelKey] !== defaults[f.modelKey])) {
    const value = policyValueOf(field, compute[field.modelKey]);
    if (value !== undefined) settings[field.policyKey] = value;
  }
  // The values follow the descriptor's policy rules; `defineConfig` validates the whole pull.
  return Object.keys(settings).length > 0 ? (settings as ComputeSettings) : undefined;
}

/** `postgres.computeSettings` in the pulled tuning when a setting differs from the project's defaults; it renders through the descriptor. */
export const computePull = {
  tuning: (records) => {
    const computeSettings = pulledComputeSettings(records.endpoints, records.project);
    return computeSettings === undefined ? {} : { postgres: { computeSettings } };
  },
  described: { "branch.postgres.computeSettings": COMPUTE_SETTINGS },
} satisfies KindPull;
