/**
 * The public surface of svc-config, major version 1: every export is named here (no barrel
 * re-exports), so nothing internal leaks by accident. `svc-config/v1` pins the major version;
 * `svc-config` (`index.ts`) exports exactly this module. `test/unit/architecture/public-surface.test.ts`
 * snapshots the list.
 */

// The registry of kinds: each kind's module declares its facts, which complete `ResourceKind` and
// the other kind-keyed types below (declaration files reach them only through this import).
import "./kinds/list.js";

// The policy: declaring, validating, loading and resolving a `svc.ts`.
export { defineConfig, validatePolicy } from "./kinds/list.js";
export { formatDuration, parseDuration } from "./config/durations.js";
export type { Duration, DurationSuggestion } from "./config/durations.js";
export type { PolicySearchStopReason } from "./config/find-policy-file.js";
export type { LoadConfigFromFileOptions, LoadConfigFromFileResult } from "./config/load-config.js";
export type {
  BranchClosure,
  BranchTuning,
  CheckoutBeforeResult,
  HookBranch,
  HookCommand,
  HookContext,
  HookGitState,
  HookPhases,
  LifecycleHooks,
  PolicyConfig,
  PreviewDef,
  PruneDef,
  Toggle,
} from "./config/policy-types.js";
export type { BucketDef } from "./kinds/bucket/policy.js";
export type { ComputeSettings, ComputeSize } from "./kinds/compute/policy.js";
export type { DataApiBuiltinDef, DataApiDef, DataApiDisabledDef, DataApiExternalDef, DataApiSettingsDef } from "./kinds/dataApi/policy.js";
export type { EsbuildFunctionDef, ExternalPackage, FunctionDef, FunctionRuntime, FunctionTuning, OtherBundlerFunctionDef } from "./kinds/function/policy.js";
export type { ScheduleTriggerDef, StorageTriggerDef, TriggerDef } from "./kinds/trigger/policy.js";
export type { ReadReplicaDef, ReadReplicasDef } from "./kinds/readReplica/policy.js";
export { resolvePolicy } from "./kinds/list.js";
export type { ResolvePolicyOptions } from "./config/resolve-policy.js";

// The engine's operations and their options, results and events. The operations load their
// modules on first call (`engine/deferred-operations.ts`), so importing this module stays light.
export {
  applyFleet,
  applyPlan,
  apply,
  buildFunctionBundle,
  createBranch,
  inspect,
  loadChecksFromFile,
  loadConfigFromFile,
  plan,
  planFleet,
  pullConfig,
  pushConfig,
} from "./engine/deferred-operations.js";
export type { PushConfirmContext } from "./apply/gate-plan.js";
export type { CreateBranchOptions, CreatedBranch } from "./engine/create-branch.js";
export type {
  ApplyOptions,
  ConfigOperationOptions,
  PlanOptions,
  PushConfigOptions,
  SelectionOptions,
} from "./engine/options.js";
export { defineCheck } from "./engine/checks-define.js";
export type { LoadChecksFromFileOptions, LoadChecksFromFileResult } from "./engine/checks-load.js";
export type { FleetBranchOutcome, FleetOptions, FleetResult } from "./engine/fleet.js";
export type { FleetShard } from "./engine/fleet-shard.js";
export type { ApplyPlanOptions, SavedPlan } from "./engine/saved-plan.js";
export { toSavedPlan } from "./engine/saved-plan-format.js";
export type { PulledBranchConfig, PulledCredential } from "./inspect/pulled-config.js";
export { renderPolicySource } from "./kinds/list.js";
export type { RenderablePulledConfig } from "./inspect/render-policy-source.js";
export type {
  BranchTarget,
  FileBundler,
  ResolvedExternalPackage,
  ResolvedFunction,
  ResolvedFunctionConfig,
  ResolvedPolicy,
} from "./model/desired-state.js";
export type { ApiRetryEvent, EngineEvent } from "./model/events.js";
export type { CheckEnforcement, CheckResult, CheckViolation } from "./model/check-result.js";
export type { Check, CheckContext, CheckDefinition, CheckPlan, CheckTarget, DeepReadonly, ReportOptions } from "./model/checks.js";
export type { LiveState } from "./model/live-state.js";
export type { DataApiSettings, ResolvedDataApi } from "./kinds/dataApi/fields.js";
export type { ResolvedTrigger } from "./kinds/trigger/fields.js";
export type { Json } from "./model/json.js";
export type {
  AppliedChange,
  AppliedChangeDetails,
  Change,
  ChangeAction,
  ChangeClass,
  ConflictReport,
  EngineWarning,
  PlanSelection,
  PlanSummary,
  PlanVerification,
  PushResult,
  ResourceKind,
  UnmanagedEntry,
} from "./model/plan.js";

// Function bundles.
export type { BundleWarning } from "./bundle/archive.js";
export type { BuildFunctionBundleOptions } from "./bundle/build-function-bundle.js";

// The platform API client and the adapter interface a caller may implement instead.
export type { PlatformApiOptions, PlatformApiPolling, PlatformApiTimeouts } from "./api/client-options.js";
export { createPlatformApi } from "./api/deferred-platform-api.js";
// A custom adapter implements `PlatformApi`; its parameter and record types (wire vocabulary,
// which grows with the platform) are reached through it, e.g. `Parameters<PlatformApi["createBranch"]>[0]`.
export type { PlatformApi } from "./api/platform-api.js";
export type { ApiEvent } from "./api/transport.js";

// Errors: one base class with a stable `code`, and its subclasses.
export {
  ApiError,
  FeatureUnavailableError,
  NetworkError,
  OutcomeUnknownError,
  TimeoutError,
} from "./errors/api-errors.js";
export type { ApiErrorInfo } from "./errors/api-errors.js";
export { CheckFailedError } from "./errors/check-errors.js";
export type { CheckFailedDetails } from "./errors/check-errors.js";
export { ErrorCode } from "./errors/codes.js";
export { ConfigLoadError, ConfigValidationError } from "./errors/config-errors.js";
export type { ConfigIssue, ConfigLoadDetails, ConfigValidationContext, ConfigValidationDetails } from "./errors/config-errors.js";
export {
  ApplyFailedError,
  BundleError,
  CancelledError,
  HookFailedError,
  PartialBranchCreateError,
  PushAbortedError,
  PushConflictError,
  StalePlanError,
} from "./errors/engine-errors.js";
export type {
  ApplyFailedDetails,
  BundleErrorDetails,
  BundleFailure,
  CancelledDetails,
  ExternalPackagesFailureReason,
  HookFailedDetails,
  PartialBranchCreateDetails,
  PushAbortedDetails,
  PushAbortReason,
  PushConflictDetails,
  StalePlanDetails,
  StalePlanDifference,
  StalePlanReason,
} from "./errors/engine-errors.js";
export { PlatformError, isPlatformError } from "./errors/platform-error.js";
export type { ErrorDetails, PlatformErrorOptions } from "./errors/platform-error.js";

// The library version.
export { LIBRARY_VERSION } from "./version.js";
