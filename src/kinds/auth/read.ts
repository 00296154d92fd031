/** The auth integration record → the live state's auth: the auth kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiAuthIntegration } from "../../api/wire-types.js";
import { fromWire } from "../../model/kinds/field.js";
import { AUTH_FIELDS, type LiveAuth } from "./fields.js";

/** The auth part: enabled with its database, or not enabled. */
export function normalizeAuth(integration: ApiAuthIntegration | null): LiveAuth {
  if (integration === null) return { enabled: false };
  return { enabled: true, ...fromWire(AUTH_FIELDS, integration) };
}

/** The auth kind's read: auth (and the databases, one of which it lives on) when enabled, auth alone when declared off. */
export const authRead: KindRead<LiveContributionOf<"auth">> = {
  pull: { needs: { auth: true } },
  needs: (policy) => (policy.auth === "enabled" ? { auth: true, databases: true } : policy.authDeclaredOff ? { auth: true } : {}),
  slice: ({ auth }) => (auth === undefined ? {} : { auth: normalizeAuth(auth) }),
};
