/**
 * The kind modules of the registry, one per kind of `kinds/index.ts` (the compiler refuses a kind
 * without its module), and the stages bound to them: the diff visits them in rank order, the
 * executor finds each operation's handler among them.
 */
import type { ChangeHandlers } from "../apply/execution-context.js";
import { diffKinds } from "../diff/diff-state.js";
import type { DiffOptions, DiffResult } from "../diff/plan-types.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import { authKind } from "./auth/index.js";
import { branchKind } from "./branch/index.js";
import { bucketKind } from "./bucket/index.js";
import { computeKind } from "./compute/index.js";
import { dataApiKind } from "./dataApi/index.js";
import { databaseKind } from "./database/index.js";
import { domainKind } from "./domain/index.js";
import { functionKind } from "./function/index.js";
import { KIND_NAMES, type ResourceKind } from "./index.js";
import type { KindModule } from "./module.js";
import { roleKind } from "./role/index.js";
import { triggerKind } from "./trigger/index.js";

/** The module of each kind. */
const MODULES: { readonly [K in ResourceKind]: KindModule<K> } = {
  branch: branchKind,
  compute: computeKind,
  role: roleKind,
  database: databaseKind,
  auth: authKind,
  dataApi: dataApiKind,
  bucket: bucketKind,
  function: functionKind,
  trigger: triggerKind,
  domain: domainKind,
};

/** The module of some kind. */
export type AnyKindModule = { [K in ResourceKind]: KindModule<K> }[ResourceKind];

/** Every kind's module, in rank order. */
export const KIND_MODULES: readonly AnyKindModule[] = KIND_NAMES.map((name) => MODULES[name]);

/** The handler of every operation, from the kinds' modules (each operation belongs to one kind). */
export const KIND_HANDLERS: ChangeHandlers = handlersOf(Object.values(MODULES));

function handlersOf(kinds: readonly AnyKindModule[]): ChangeHandlers {
  const handlers: ChangeHandlers = {};
  for (const kind of kinds) Object.assign(handlers, kind.handlers);
  return handlers;
}

/** The pure diff of every kind of the registry (see {@link diffKinds}). */
export function diffState(desired: ResolvedPolicy, live: LiveState, options: DiffOptions): DiffResult {
  return diffKinds(KIND_MODULES, desired, live, options);
}
