/** The auth kind's pure diff: the integration is created when the policy turns it on; a policy never disables it. */
import { type ResolvedPolicy, serviceDatabase } from "../../model/desired-state.js";
import type { LiveState } from "../../model/live-state.js";
import { planKeyOf } from "../../model/kinds/field.js";
import { makeChange } from "../../diff/change-builder.js";
import type { DiffSink } from "../../diff/plan-types.js";
import { AUTH_FIELDS } from "./fields.js";

const [AUTH_DATABASE] = AUTH_FIELDS;

/**
 * What the auth integration shares with the Data API, which owns it (the kind's declared
 * dependency, given by its module): the service database's check and the changes a service change waits for.
 */
export interface ServiceDatabase {
  databaseMissing(desired: ResolvedPolicy, live: LiveState, kind: "auth", sink: DiffSink): boolean;
  controlPlaneIds(sink: DiffSink, database?: string): string[];
}

/** Diffs the auth integration: `create:auth` when on and absent; never disables. */
export function diffAuth(desired: ResolvedPolicy, live: LiveState, sink: DiffSink, { databaseMissing, controlPlaneIds }: ServiceDatabase): void {
  const exists = live.auth?.enabled === true;
  if (desired.authDeclaredOff && exists) {
    sink.warnings.push({
      code: "AUTH_FALSE_IGNORED",
      message: "auth: false is ignored: the branch has an auth integration and the policy never disables it (disable it in the console)",
      address: "auth",
    });
  }
  if (desired.auth !== "enabled" || exists) return;
  if (databaseMissing(desired, live, "auth", sink)) return;
  const database = serviceDatabase(desired);
  sink.changes.push(
    makeChange({
      address: "auth",
      kind: "auth",
      action: "create",
      class: "additive",
      fields: ["*"],
      before: null,
      after: { enabled: true, [planKeyOf(AUTH_DATABASE)]: database },
      reason: `auth is on in the policy and the branch has no auth integration; it is created on database "${database}"`,
      dependsOn: controlPlaneIds(sink, database),
      op: { type: "auth-create" },
      planned: { databaseName: database },
    }),
  );
}
