/** The compute settings on the wire: what a new read-write endpoint is created with. */
import { type ValueOf, planKeyOf } from "../../model/kinds/field.js";
import { COMPUTE_SETTINGS, type ComputeValues } from "./fields.js";

/** The compute settings in wire names, each optional: what endpoint create and update requests may carry. */
export type EndpointSettingsInput = { [D in (typeof COMPUTE_SETTINGS)[number] as D["wireKey"]]?: ValueOf<D["rule"]> };

/** The endpoint settings of a request carrying the given compute settings (the others left to the platform). */
export function endpointSettingsOf(values: Partial<ComputeValues>): EndpointSettingsInput {
  const settings: EndpointSettingsInput = {};
  for (const field of COMPUTE_SETTINGS) {
    const value = values[field.modelKey];
    if (value !== undefined) settings[field.wireKey] = value;
  }
  return settings;
}

/** The compute settings a request's endpoint settings carry, by plan key, in the descriptor's order. */
export function plannedComputeOf(settings: EndpointSettingsInput): Record<string, number> {
  const planned: Record<string, number> = {};
  for (const field of COMPUTE_SETTINGS) {
    const value = settings[field.wireKey];
    if (value !== undefined) planned[planKeyOf(field)] = value;
  }
  return planned;
}
