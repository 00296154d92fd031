/** The function kind: its facts and its light module; its stages (`stages.ts`) load with the registry's modules (`kinds/modules.ts`). */
import { kindTuning } from "../../config/schemas/branch-tuning.js";
import type { FunctionOperations, FunctionLiveFields, FunctionResolvedFields } from "./fields.js";
import type { KindLight } from "../module.js";
import { type FunctionPolicyKeys, type FunctionPreviewKeys, type FunctionTuningKeys, declaredFunctions, functionPolicy, functionTuningShape } from "./policy.js";
import { type PulledFunction, functionPull } from "./pull.js";
import { overrideIssues, resolveFunctions } from "./resolve.js";

/** Functions (`functions`), deployed from their bundles. */
export const functionKind: KindLight<"function"> = {
  name: "function",
  scope: "named",
  feature: "functions",
  prunedByName: true,
  policy: functionPolicy,
  // The declared functions with the branch's overrides (`functions`, or the deprecated `preview.functions`).
  tuning: kindTuning(
    functionTuningShape,
    (overrides, { policy, target, baseDir }) => {
      const { functions, issues, deprecatedKeys } = resolveFunctions(declaredFunctions(policy), overrides, target, baseDir);
      return { fields: { functions }, issues, deprecatedKeys };
    },
    (raw, policy) => overrideIssues(raw, declaredFunctions(policy)),
  ),
  pull: functionPull,
  outputs: (result) =>
    result.applied.flatMap((change) => {
      const url = change.details?.invocationUrl;
      return change.kind === "function" && typeof url === "string" && url !== "" ? [{ address: change.address, name: "invocationUrl" as const, value: url }] : [];
    }),
  stages: async () => (await import("./stages.js")).functionStages,
};

declare module "../registry.js" {
  interface KindFacts {
    /** The kind's entry in the registry's facts: functions. */
    function: { scope: "named"; operations: FunctionOperations; liveFields: FunctionLiveFields; feature: "functions"; prunedByName: true;
      preview: { functions: PulledFunction[] }; resolvedFields: FunctionResolvedFields; tuning: FunctionTuningKeys;
      policy: { keys: FunctionPolicyKeys; preview: FunctionPreviewKeys; prune: { functions?: boolean } };
    };
  }
}
