/** The auth kind's stages: its diff and its handler. */
import type { KindStages } from "../module.js";
import { authRead } from "./read.js";
import { applyAuthCreate } from "./apply.js";
import { controlPlaneIds, databaseMissing } from "../dataApi/diff.js";
import { diffAuth } from "./diff.js";

/** The kind's stages (its facts and light module are in `index.ts`). */
export const authStages: KindStages<"auth"> = {
  read: authRead,
  compared: (live) => ({ auth: live.auth === undefined ? undefined : { enabled: live.auth.enabled } }),
  diff: (desired, live, _options, sink) => diffAuth(desired, live, sink, { databaseMissing, controlPlaneIds }),
  handlers: { "auth-create": (ctx, _change, _op, planned) => applyAuthCreate(ctx, planned) },
  digests: { "auth-create": (planned) => ({ database: planned.databaseName }) },
  seed: (live) =>
    live.auth?.enabled === true
      ? { branch: { auth: { auth_provider: "better_auth", ...(live.auth.databaseName === undefined ? {} : { database_name: live.auth.databaseName }) } } }
      : {},
};
