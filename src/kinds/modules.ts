/**
 * The registry of resource kinds: the one list of them, each kind's module, in rank order (the
 * order the diff visits kinds and the executor's tie-break among ready changes; prune visits them
 * in the reverse order). A kind is its folder (`kinds/<kind>/`, which declares its facts) plus its
 * entry here: the compiler refuses a kind without its module and a module without facts, and
 * selection, ordering, gating, the plan views, the diff, the handlers and the replica seed take it in.
 */
import type { ChangeHandlers } from "../apply/execution-context.js";
import type { DigestViews } from "../model/planned-change.js";
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
import type { ResourceKind } from "./index.js";
import type { KindModule } from "./module.js";
import { kindRegistry } from "./registry.js";
import { roleKind } from "./role/index.js";
import { triggerKind } from "./trigger/index.js";

/** The module of each kind; the order of the entries is the kinds' rank. */
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

// Exported so that the declaration files reach every kind's module, which declares its facts (the
// `ResourceKind` union of the public types is complete only with all of them).
export { authKind, branchKind, bucketKind, computeKind, dataApiKind, databaseKind, domainKind, functionKind, roleKind, triggerKind };

/** The module of some kind. */
export type AnyKindModule = { [K in ResourceKind]: KindModule<K> }[ResourceKind];

/** Every kind's module, in rank order. */
export const KIND_MODULES: readonly AnyKindModule[] = Object.values(MODULES);

export const { KIND_NAMES, FEATURE_KINDS, isResourceKind, rankOf, addressOf } = kindRegistry(KIND_MODULES);

/** The handler of every operation, from the kinds' modules (each operation belongs to one kind). */
export const KIND_HANDLERS: ChangeHandlers = handlersOf(KIND_MODULES);

/** The digest view of every operation that has one, from the kinds' modules. */
export const KIND_DIGESTS: DigestViews = digestsOf(KIND_MODULES);

function handlersOf(kinds: readonly AnyKindModule[]): ChangeHandlers {
  const handlers: ChangeHandlers = {};
  for (const kind of kinds) Object.assign(handlers, kind.handlers);
  return handlers;
}

function digestsOf(kinds: readonly AnyKindModule[]): DigestViews {
  const views: DigestViews = {};
  for (const kind of kinds) Object.assign(views, kind.digests);
  return views;
}

/** The pure diff of every kind of the registry (see {@link diffKinds}). */
export function diffState(desired: ResolvedPolicy, live: LiveState, options: DiffOptions): DiffResult {
  return diffKinds(KIND_MODULES, desired, live, options);
}
