/**
 * The registry of resource kinds: the one list of them, each kind's light module (`kinds/<kind>/index.ts`,
 * which declares its facts), in rank order (the order the diff visits kinds and the executor's
 * tie-break among ready changes; prune visits them in the reverse order). A kind is its folder plus
 * its entry here: the compiler refuses a kind without its module and a module without facts, and
 * selection, ordering, gating, the plan views, policy resolution, pulls and, through each module's
 * stages (`kinds/modules.ts`), the diff, the handlers, the reads and the replica seed take it in.
 * Importing it loads what declaring, resolving and rendering a policy need, none of the kinds' stages.
 */
import type { ConfigValidationContext } from "../errors/index.js";
import { type PolicyKinds, policyKindsOf } from "../config/policy-kinds.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { type ResolvePolicyOptions, resolvePolicyWith } from "../config/resolve-policy.js";
import { readStaticPolicy } from "../config/validate-static.js";
import type { KindPull } from "../inspect/kind-pull.js";
import { type RenderablePulledConfig, renderPolicySourceWith } from "../inspect/render-policy-source.js";
import type { BranchTarget, ResolvedFunction, ResolvedPolicy } from "../model/desired-state.js";
import { authKind } from "./auth/index.js";
import { branchKind } from "./branch/index.js";
import { bucketKind } from "./bucket/index.js";
import { computeKind } from "./compute/index.js";
import { dataApiKind } from "./dataApi/index.js";
import { databaseKind } from "./database/index.js";
import { domainKind } from "./domain/index.js";
import { functionKind } from "./function/index.js";
import { declaredFunctions } from "./function/policy.js";
import { resolveFunctions } from "./function/resolve.js";
import type { ResourceKind } from "./index.js";
import type { KindLight } from "./module.js";
import { readReplicaKind } from "./readReplica/index.js";
import { kindRegistry } from "./registry.js";
import { roleKind } from "./role/index.js";
import { triggerKind } from "./trigger/index.js";

/** The light module of each kind; the order of the entries is the kinds' rank. */
const KINDS: { readonly [K in ResourceKind]: KindLight<K> } = {
  branch: branchKind,
  compute: computeKind,
  readReplica: readReplicaKind,
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
export { authKind, branchKind, bucketKind, computeKind, dataApiKind, databaseKind, domainKind, functionKind, readReplicaKind, roleKind, triggerKind };

/** The light module of some kind. */
export type AnyKindLight = { [K in ResourceKind]: KindLight<K> }[ResourceKind];

/** Every kind's light module, in rank order. */
export const KIND_LIST: readonly AnyKindLight[] = Object.values(KINDS);

export const { KIND_NAMES, FEATURE_KINDS, isResourceKind, rankOf, addressOf } = kindRegistry(KIND_LIST);

/** The kinds' static parts of a policy and their keys of the branch tuning. */
export const POLICY_KINDS: PolicyKinds = policyKindsOf(KIND_LIST);

/**
 * Declares a policy (docs/policy.md#the-policy-file). Validates the static part immediately (every key but the
 * result of `branch`) and returns a deeply frozen copy; the `branch` closure and custom
 * bundlers are kept by reference.
 *
 * @throws ConfigValidationError (`PLATFORM_CONFIG_INVALID`) listing every issue with its path,
 * e.g. `functions.api.env.STRIPE_KEY`.
 */
export function defineConfig(value: PolicyConfig): PolicyConfig {
  return readStaticPolicy(POLICY_KINDS, value).config;
}

/**
 * Validates any value as a policy, as `defineConfig` does, naming `context.file` in the
 * message. Used by the loader on a module's exported value, which may be a plain object. A
 * policy already returned by `defineConfig` or `validatePolicy` is returned as is.
 *
 * @throws ConfigValidationError (`PLATFORM_CONFIG_INVALID`) listing every issue.
 */
export function validatePolicy(value: unknown, context: ConfigValidationContext = {}): PolicyConfig {
  return readStaticPolicy(POLICY_KINDS, value, context).config;
}

/**
 * Resolves `config` for the branch `target`: validates the static part, calls the `branch`
 * closure exactly once, validates its tuning (paths under `branch.`, undeclared slugs
 * rejected), fills every default, resolves sources against the base directory, applies the
 * default-branch-only custom-domain rule, checks that no hostname serves two functions, and
 * resolves the keys each kind adds to the tuning (its slice in `kinds`).
 *
 * @throws ConfigValidationError (`PLATFORM_CONFIG_INVALID`) listing every issue of the failing
 * stage; a throwing closure is wrapped with the branch name and kept as `cause`.
 * @throws ConfigLoadError (`PLATFORM_CONFIG_LOAD_FAILED`) when the closure runs longer than the
 * policy's evaluation limit or calls `process.exit`/`process.abort`.
 * @throws PlatformError (`PLATFORM_INVALID_OPTIONS`) when `baseDir` is not absolute.
 */
export function resolvePolicy(config: PolicyConfig, target: BranchTarget, options: ResolvePolicyOptions = {}): ResolvedPolicy {
  return resolvePolicyWith(POLICY_KINDS, config, target, options);
}

/**
 * The functions a validated policy declares, resolved without any branch: what each is built from
 * (its source against `baseDir`, bundler, source map, external packages) is static, since a
 * branch's closure overrides only runtimes and custom domains. Used to start bundling before the
 * branch is read (`engine/bundle-head-start.ts`); the closure is not evaluated.
 *
 * @throws ConfigValidationError when `config` is not a valid policy.
 */
export function declaredBuilds(config: PolicyConfig, baseDir: string | null): ResolvedFunction[] {
  const { parsed } = readStaticPolicy(POLICY_KINDS, config);
  return resolveFunctions(declaredFunctions(parsed), {}, { name: "", exists: true }, baseDir).functions;
}

/** How many functions a validated policy declares (without resolving them). @throws ConfigValidationError when `config` is not a valid policy. */
export function declaredFunctionCount(config: PolicyConfig): number {
  return Object.keys(declaredFunctions(readStaticPolicy(POLICY_KINDS, config).parsed).bySlug).length;
}

/** The pull stages of the kinds that have one, in rank order. */
export const KIND_PULLS: readonly KindPull[] = KIND_LIST.flatMap((kind) => (kind.pull === undefined ? [] : [kind.pull]));

/**
 * A pulled branch (`pullConfig`) as deterministic `svc.ts` source: the policy's keys in the
 * order the policy's schema declares them, the tuning for the kind of branch it was pulled from,
 * then comments on what the policy cannot declare (buckets, functions, triggers, hostnames), each
 * live name escaped. Loading the text yields a config equal to `pulled.config`.
 */
export function renderPolicySource(pulled: RenderablePulledConfig): string {
  return renderPolicySourceWith(KIND_PULLS, POLICY_KINDS.keyOrder, pulled);
}
