import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import * as root from "../../../src/index.js";
import * as v1 from "../../../src/v1.js";
import type { PlatformApi } from "../../../src/v1.js";
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
  "ApiErrorInfo", "ApiEvent", "ApiRetryEvent", "AppliedChange", "AppliedChangeDetails", "ApplyFailedDetails",
  "ApplyOptions", "ApplyPlanOptions", "BranchClosure", "BranchTarget", "BranchTuning", "BucketDef",
  "BuildFunctionBundleOptions", "BundleErrorDetails", "BundleFailure", "BundleWarning", "CancelledDetails", "Change",
  "ChangeAction", "ChangeClass", "Check", "CheckContext", "CheckDefinition", "CheckEnforcement", "CheckFailedDetails",
  "CheckPlan", "CheckResult", "CheckTarget", "CheckViolation", "CheckoutBeforeResult", "ComputeSettings",
  "ComputeSize", "ConfigIssue", "ConfigLoadDetails", "ConfigOperationOptions", "ConfigValidationContext",
  "ConfigValidationDetails", "ConflictReport", "CreateBranchOptions", "CreatedBranch", "DataApiBuiltinDef",
  "DataApiDef", "DataApiDisabledDef", "DataApiExternalDef", "DataApiSettings", "DataApiSettingsDef", "DeepReadonly",
  "Duration", "DurationSuggestion", "EngineEvent", "EngineWarning", "ErrorDetails", "EsbuildFunctionDef",
  "ExternalPackage", "ExternalPackagesFailureReason", "FileBundler", "FleetBranchOutcome", "FleetOptions",
  "FleetResult", "FleetShard", "FunctionDef", "FunctionRuntime", "FunctionTuning", "HookBranch", "HookCommand", "HookContext",
  "HookFailedDetails", "HookGitState", "HookPhases", "Json", "LifecycleHooks", "LiveState",
  "LoadChecksFromFileOptions", "LoadChecksFromFileResult", "LoadConfigFromFileOptions", "LoadConfigFromFileResult",
  "OtherBundlerFunctionDef", "PartialBranchCreateDetails", "PlanOptions", "PlanSelection", "PlanSummary",
  "PlanVerification", "PlatformApi", "PlatformApiOptions", "PlatformApiPolling", "PlatformApiTimeouts",
  "PlatformErrorOptions", "PolicyConfig", "PolicySearchStopReason", "PreviewDef", "PruneDef", "PulledBranchConfig",
  "PulledCredential", "PushAbortReason", "PushAbortedDetails", "PushConfigOptions", "PushConfirmContext",
  "PushConflictDetails", "PushResult", "ReadReplicaDef", "ReadReplicasDef", "RenderablePulledConfig", "ReportOptions", "ResolvePolicyOptions",
  "ResolvedDataApi", "ResolvedExternalPackage", "ResolvedFunction", "ResolvedFunctionConfig", "ResolvedPolicy",
  "ResolvedTrigger", "ResourceKind", "SavedPlan", "ScheduleTriggerDef", "SelectionOptions", "StalePlanDetails",
  "StalePlanDifference", "StalePlanReason", "StorageTriggerDef", "Toggle", "TriggerDef", "UnmanagedEntry",
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

  it("keeps the adapter's wire records out: a custom adapter reaches them through PlatformApi", () => {
    type CreateBranchParams = Parameters<PlatformApi["createBranch"]>[0];
    type Branch = Awaited<ReturnType<PlatformApi["getBranch"]>>;
    expectTypeOf<CreateBranchParams>().toHaveProperty("projectId");
    expectTypeOf<Branch>().toHaveProperty("id");
    const wire = (v1Declared?.types ?? []).filter((name) => /^Api(?!ErrorInfo$|Event$|RetryEvent$)[A-Z]|Params$|Ref$/.test(name));
    expect(wire).toEqual([]);
  });

  it("is listed in docs/engine.md, every runtime name and every type", () => {
    const docs = readFileSync(fileURLToPath(new URL("../../../docs/engine.md", import.meta.url)), "utf8");
    const section = docs.slice(docs.indexOf("## What `svc-config/v1` exports"), docs.indexOf("## What gets applied"));
    expect([...RUNTIME_EXPORTS, ...TYPE_EXPORTS].filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  it("names every export in src/v1.ts (no `export *`)", () => {
    expect(readFileSync(V1, "utf8")).not.toMatch(/export\s+(type\s+)?\*/);
  });
});
