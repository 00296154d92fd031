/** Endpoint records → the live state's compute and the project's default compute. Pure. */
import type { ApiEndpoint, ApiProject } from "../../api/wire-types.js";
import { fromWire } from "../../model/kinds/field.js";
import { COMPUTE_SETTINGS, type ComputeValues, type LiveCompute } from "./fields.js";

/** The first read-write endpoint (in listing order), or null. */
export function normalizeCompute(endpoints: readonly ApiEndpoint[]): LiveCompute | null {
  const endpoint = endpoints.find((e) => e.type === "read_write");
  if (endpoint === undefined) return null;
  // The endpoint schema requires the three numbers, which the descriptor's model rules accept.
  return { endpointId: endpoint.id, ...(fromWire(COMPUTE_SETTINGS, endpoint) as ComputeValues) };
}

/** The compute settings a new endpoint of the project gets when a request leaves them out (those the project states). */
export function defaultComputeOf(project: ApiProject): Partial<ComputeValues> {
  return fromWire(COMPUTE_SETTINGS, project.default_endpoint_settings ?? {});
}
