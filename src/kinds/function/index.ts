/** The function kind as the registry holds it: its diff and prune, its handlers, and when a policy needs the functions feature. */
import { applyFunctionDelete, applyFunctionDeploy } from "../../apply/handlers/functions.js";
import { diffFunctions, pruneFunctions } from "../../diff/functions.js";
import type { KindModule } from "../module.js";

/** Functions (`functions`), deployed from their bundles. */
export const functionKind: KindModule<"function"> = {
  name: "function",
  diff: (desired, live, options, sink) => diffFunctions(desired, live, options.functionTags, sink),
  prune: (desired, live, _options, sink) => pruneFunctions(desired, live, sink),
  declares: (desired) => desired.functions.length > 0,
  handlers: {
    "function-deploy": applyFunctionDeploy,
    "function-delete": (ctx, _change, op) => applyFunctionDelete(ctx, op),
  },
};
