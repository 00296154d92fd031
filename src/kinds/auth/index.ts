/** The auth kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import type { AuthOperations, AuthLiveFields, AuthResolvedFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { authPull } from "./pull.js";
import { type AuthPolicyKeys, authPolicy } from "./policy.js";

/** The branch's auth service (`auth`). */
export const authKind: KindLight<"auth"> = {
  name: "auth",
  scope: "branch",
  policy: authPolicy,
  pull: authPull,
  stages: async () => (await import("./stages.js")).authStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the auth integration. */
    auth: { scope: "branch"; operations: AuthOperations; liveFields: AuthLiveFields; resolvedFields: AuthResolvedFields; policy: { keys: AuthPolicyKeys } };
  }
}
