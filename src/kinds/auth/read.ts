/** The auth integration record → the live state's auth. Pure. */
import type { ApiAuthIntegration } from "../../api/wire-types.js";
import { fromWire } from "../../model/kinds/field.js";
import type { LiveState } from "../../model/live-state.js";
import { AUTH_FIELDS } from "./fields.js";

/** The auth part: enabled with its database, or not enabled. */
export function normalizeAuth(integration: ApiAuthIntegration | null): NonNullable<LiveState["auth"]> {
  if (integration === null) return { enabled: false };
  return { enabled: true, ...fromWire(AUTH_FIELDS, integration) };
}
