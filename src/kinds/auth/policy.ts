/** The policy's `auth`: its public type and the static policy stage. */
import { isOn, type Toggle, toggleSchema } from "../../config/schemas/common.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import type { AuthResolvedFields } from "./fields.js";

/** The auth kind's top-level key of the policy. */
export interface AuthPolicyKeys {
  /** Auth integration; `false` never disables it. Omitted = not managed. */
  auth?: Toggle;
}

/** The auth kind's static policy: `auth`, resolved to enabled or unmanaged (a policy never disables auth). */
export const authPolicy = kindPolicy({
  order: 10,
  keys: { auth: toggleSchema },
  resolve: ({ auth }): AuthResolvedFields => ({ auth: isOn(auth) ? "enabled" : "unmanaged", authDeclaredOff: auth !== undefined && !isOn(auth) }),
});
