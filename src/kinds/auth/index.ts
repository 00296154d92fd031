/** The auth kind as the registry holds it: its diff and its handler. */
import type { AuthOperations } from "./fields.js";
import { authPull } from "./pull.js";
import type { KindModule } from "../module.js";
import { applyAuthCreate } from "./apply.js";
import { diffAuth } from "./diff.js";
import { controlPlaneIds, databaseMissing } from "../dataApi/diff.js";

/** The branch's auth service (`auth`). */
export const authKind: KindModule<"auth"> = {
  name: "auth",
  scope: "branch",
  diff: (desired, live, _options, sink) => diffAuth(desired, live, sink, { databaseMissing, controlPlaneIds }),
  pull: authPull,
  handlers: { "auth-create": (ctx, _change, _op, planned) => applyAuthCreate(ctx, planned) },
  digests: { "auth-create": (planned) => ({ database: planned.databaseName }) },
  seed: (live) =>
    live.auth?.enabled === true
      ? { branch: { auth: { auth_provider: "better_auth", ...(live.auth.databaseName === undefined ? {} : { database_name: live.auth.databaseName }) } } }
      : {},
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: the auth integration. */
    auth: { scope: "branch"; operations: AuthOperations };
  }
}
