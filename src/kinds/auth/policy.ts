/** The policy's `auth`: its public type and the static policy stage. */
import { isOn, type Toggle, toggleSchema } from "../../config/schemas/common.js";
import { kindPolicy } from "../../config/schemas/kind-policy.js";
import type { AuthResolvedFields } from "./fields.js";
import type { Assert, KeysOf, PolicyKeys, Same } from "../../config/schemas/type-match.js";
import type { DataApiDef } from "../dataApi/policy.js";
import type { AUTH_FIELDS } from "./fields.js";

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

/** Compile-time: the public types above and the schemas that validate them agree (see `config/schemas/type-match.ts`). */
export type PolicyTypesMatchSchemas = [
  // The auth integration's fields are stated under `dataApi` (its database).
  Assert<Same<Extract<KeysOf<Exclude<DataApiDef, boolean>>, PolicyKeys<typeof AUTH_FIELDS>>, PolicyKeys<typeof AUTH_FIELDS>>>,
];
