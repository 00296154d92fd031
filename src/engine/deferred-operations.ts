/**
 * The public asynchronous operations as `svc-config/v1` exports them: each loads its module on its
 * first call. Importing the package then costs only what declaring, validating and resolving a
 * policy need; the engine, the HTTP client, the bundler and the loader (with their wire schemas)
 * load with the first operation that uses them, once per process. Signatures and behaviour are
 * those of the modules named in each `typeof`.
 */
import type * as BundleModule from "../bundle/build-function-bundle.js";
import type * as LoadModule from "../config/load-config.js";
import type * as ChecksModule from "./checks-load.js";
import type * as CreateBranchModule from "./create-branch.js";
import type * as FleetModule from "./fleet.js";
import type * as InspectModule from "./inspect.js";
import type * as PushModule from "./push-config.js";
import type * as SavedPlanModule from "./saved-plan.js";

/** A function that imports `load()`'s function on the first call and then calls it. */
function deferred<A extends unknown[], R>(load: () => Promise<(...args: A) => Promise<R>>): (...args: A) => Promise<R> {
  return async (...args) => (await load())(...args);
}

/** Finds and loads `svc.ts` (docs/policy.md, "Loading"): evaluates it afresh on every call and validates it. */
export const loadConfigFromFile: typeof LoadModule.loadConfigFromFile = deferred(async () => (await import("../config/load-config.js")).loadConfigFromFile);

/** Finds and loads the policy's checks file (docs/checks.md), evaluating it as the policy is. */
export const loadChecksFromFile: typeof ChecksModule.loadChecksFromFile = deferred(async () => (await import("./checks-load.js")).loadChecksFromFile);

/** Reads a branch's live configuration (docs/engine.md, "Operations"); `pullConfig` is the same operation. */
export const inspect: typeof InspectModule.inspect = deferred(async () => (await import("./inspect.js")).inspect);

/** The same operation as {@link inspect}. */
export const pullConfig: typeof InspectModule.pullConfig = deferred(async () => (await import("./inspect.js")).pullConfig);

/** Plans a policy against a branch, mutating nothing (docs/engine.md, "Operations"). */
export const plan: typeof PushModule.plan = deferred(async () => (await import("./push-config.js")).plan);

/** Applies a policy to a branch without a confirmation callback (docs/engine.md, "What gets applied, and when it is refused"). */
export const apply: typeof PushModule.apply = deferred(async () => (await import("./push-config.js")).apply);

/** Plans and, unless `dryRun`, applies a policy, gated by `confirm` (docs/engine.md, "What gets applied, and when it is refused"). */
export const pushConfig: typeof PushModule.pushConfig = deferred(async () => (await import("./push-config.js")).pushConfig);

/** Applies a saved plan exactly as it was shown, or refuses with `StalePlanError` (docs/engine.md, "Saved plans"). */
export const applyPlan: typeof SavedPlanModule.applyPlan = deferred(async () => (await import("./saved-plan.js")).applyPlan);

/** Creates a branch and applies the policy to it (docs/engine.md, "createBranch"). */
export const createBranch: typeof CreateBranchModule.createBranch = deferred(async () => (await import("./create-branch.js")).createBranch);

/** Plans a policy against every branch of a fleet under one concurrency budget (docs/fleet.md, "In the library"). */
export const planFleet: typeof FleetModule.planFleet = deferred(async () => (await import("./fleet.js")).planFleet);

/** Applies a policy to every branch of a fleet under one concurrency budget (docs/fleet.md, "In the library"). */
export const applyFleet: typeof FleetModule.applyFleet = deferred(async () => (await import("./fleet.js")).applyFleet);

/** Builds one function's deterministic ZIP archive, as a deployment ships it (docs/bundling.md). */
export const buildFunctionBundle: typeof BundleModule.buildFunctionBundle = deferred(async () => (await import("../bundle/build-function-bundle.js")).buildFunctionBundle);
