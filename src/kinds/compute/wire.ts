/** The compute settings on the wire: what a new read-write endpoint is created with, and the schemas of their values. */
import { z } from "zod";
import { type ValueOf, followsRule, planKeyOf } from "../../model/kinds/field.js";
import { COMPUTE_SETTINGS, COMPUTE_SIZE, type ComputeValues, SUSPEND_TIMEOUT } from "./fields.js";

/** Compute-unit sizes an autoscaling limit may take: 0.25, 0.5, 1–16, even 18–56. */
export const ComputeUnitSchema = z.number().refine((cu) => followsRule(COMPUTE_SIZE, cu), "must be 0.25, 0.5, an integer 1-16 or an even integer 18-56");

/** `suspend_timeout_seconds`: 0 (default 300), -1 (never) or 60–604800. */
export const SuspendTimeoutSchema = z
  .number()
  .int()
  .refine((s) => followsRule(SUSPEND_TIMEOUT, s), "must be 0, -1 or 60-604800");

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
