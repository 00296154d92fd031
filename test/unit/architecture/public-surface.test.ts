import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import * as root from "../../../src/index.js";
import * as v1 from "../../../src/v1.js";
import { readDeclaredExports, type DeclaredExports } from "./public-surface.js";

const V1 = fileURLToPath(new URL("../../../src/v1.ts", import.meta.url));
const INDEX = fileURLToPath(new URL("../../../src/index.ts", import.meta.url));
let v1Declared: DeclaredExports | undefined;
let indexDeclared: DeclaredExports | undefined;
// One TypeScript program over the sources: seconds, so once, in a hook (hooks get 60 s).
beforeAll(() => {
  [v1Declared, indexDeclared] = readDeclaredExports([V1, INDEX]);
});

/**
 * The runtime exports of `svc-config/v1`. Changing the public surface means changing this list
 * in the same commit: an addition is a feature, a removal is a breaking change.
 */
const RUNTIME_EXPORTS = [
  "ApiError", "ApplyFailedError", "BundleError", "CancelledError", "CheckFailedError", "ConfigLoadError",
  "ConfigValidationError", "ErrorCode", "FeatureUnavailableError", "HookFailedError", "LIBRARY_VERSION", "NetworkError",
  "OutcomeUnknownError", "PartialBranchCreateError", "PlatformError", "PushAbortedError",
  "PushConflictError", "StalePlanError", "TimeoutError", "apply", "applyFleet", "applyPlan", "buildFunctionBundle",
  "createBranch", "createPlatformApi", "defineCheck", "defineConfig", "formatDuration", "inspect", "isPlatformError",
  "loadChecksFromFile", "loadConfigFromFile", "parseDuration", "plan", "planFleet", "pullConfig", "pushConfig", "renderPolicySource",
  "resolvePolicy", "toSavedPlan", "validatePolicy",
];

/** The type-only names the declarations of `svc-config/v1` export. */
const TYPE_EXPORTS = [
  "ApiAiGateway", "ApiAuthCredentials", "ApiAuthIntegration", "ApiBranch", "ApiBucket", "ApiBucketObject",
  "ApiBucketObjectPage", "ApiCredential", "ApiCredentialSecret", "ApiCustomDomain", "ApiDataApi",
  "ApiDatabase", "ApiDeployment", "ApiEndpoint", "ApiErrorInfo", "ApiEvent", "ApiFunction", "ApiKeyCreated",
  "ApiKeyRecord", "ApiListedBranch", "ApiOperation", "ApiProject", "ApiRetryEvent", "ApiRole", "ApiTrigger",
  "ApiTriggerInput", "AppliedChange", "AppliedChangeDetails", "ApplyFailedDetails", "ApplyOptions", "ApplyPlanOptions", "BranchClosure", "BranchRef",
  "BranchTarget", "BranchTuning", "BucketDef", "BuildFunctionBundleOptions", "BundleErrorDetails", "BundleFailure",
  "BundleWarning", "CancelledDetails", "Change", "ChangeAction", "ChangeClass", "Check", "CheckContext", "CheckDefinition", "CheckEnforcement", "CheckFailedDetails", "CheckPlan", "CheckResult", "CheckTarget", "CheckViolation", "CheckoutBeforeResult", "ComputeSettings", "ComputeSize", "ConfigIssue", "ConfigLoadDetails",
  "ConfigOperationOptions", "ConfigValidationContext", "ConfigValidationDetails", "ConflictReport", "ConnectionUriParams",
  "CreateAuthParams", "CreateAuthResult", "CreateBranchOptions", "CreateBranchParams", "CreateBranchResult",
  "CreateBucketParams", "CreateCredentialParams", "CreateCustomDomainParams", "CreateDataApiParams",
  "CreateDeploymentParams", "CreateTriggerParams", "CreatedBranch", "CustomDomainRef", "DataApiBuiltinDef",
  "DataApiDef", "DataApiDisabledDef", "DataApiExternalDef", "DataApiRef", "DataApiSettings",
  "DataApiSettingsDef", "DeepReadonly", "Duration", "DurationSuggestion", "EndpointSettingsInput", "EngineEvent",
  "EngineWarning", "ErrorDetails", "EsbuildFunctionDef", "ExternalPackage", "ExternalPackagesFailureReason", "FileBundler", "FleetBranchOutcome", "FleetOptions", "FleetResult", "FunctionDef", "FunctionRef",
  "FunctionRuntime", "FunctionTuning", "HookBranch", "HookCommand", "HookContext", "HookFailedDetails", "HookGitState", "HookPhases", "Json", "LifecycleHooks", "ListBucketObjectsParams", "LiveState", "LoadChecksFromFileOptions", "LoadChecksFromFileResult", "LoadConfigFromFileOptions",
  "LoadConfigFromFileResult", "OtherBundlerFunctionDef", "PartialBranchCreateDetails", "PlanOptions", "PlanSelection", "PlanSummary", "PlanVerification",
  "PlatformApi", "PlatformApiOptions", "PlatformApiPolling", "PlatformApiTimeouts", "PlatformErrorOptions",
  "PolicyConfig", "PolicySearchStopReason", "PreviewDef", "ProjectRef", "PruneDef", "PulledBranchConfig",
  "PulledCredential", "PushAbortReason", "PushAbortedDetails", "PushConfigOptions", "PushConfirmContext", "PushConflictDetails", "PushResult",
  "RenderablePulledConfig", "ReportOptions", "ResolvePolicyOptions", "ResolvedDataApi", "ResolvedExternalPackage", "ResolvedFunction",
  "ResolvedFunctionConfig", "ResolvedPolicy", "ResolvedTrigger", "ResourceKind", "SavedPlan",
  "ScheduleTriggerDef", "SelectionOptions", "StalePlanDetails", "StalePlanDifference", "StalePlanReason", "StorageTriggerDef", "Toggle", "TriggerDef",
  "TriggerRef", "UnmanagedEntry", "UpdateBranchParams", "UpdateDataApiParams", "UpdateEndpointParams",
  "UpdateFunctionParams", "UpdateTriggerParams", "WaitForOperationsParams",
];

describe("the public surface of svc-config/v1", () => {
  it("exports exactly the listed runtime names", () => {
    expect(Object.keys(v1).sort()).toEqual(RUNTIME_EXPORTS);
  });

  it("declares exactly the listed names in its .d.ts (the runtime names plus the listed types)", () => {
    expect(v1Declared?.values).toEqual(RUNTIME_EXPORTS);
    expect(v1Declared?.types).toEqual(TYPE_EXPORTS);
  });

  it("is identical for svc-config, at run time and in declarations", () => {
    expect(Object.keys(root).sort()).toEqual(Object.keys(v1).sort());
    expect(indexDeclared).toEqual(v1Declared);
  });

  it("keeps the CLI's internals out", () => {
    const internals = ["CliError", "CliErrorCode", "isCliError", "formatIssues", "errorCodeForStatus", "isTerminalStatus", "DEFAULT_API_HOST", "DEFAULT_POLLING", "DEFAULT_TIMEOUTS"];
    expect(internals.filter((name) => name in v1)).toEqual([]);
  });

  it("names every export in src/v1.ts (no `export *`)", () => {
    expect(readFileSync(V1, "utf8")).not.toMatch(/export\s+(type\s+)?\*/);
  });
});
