/** The engine's public operations: plan, apply, pushConfig (and their option and event types). */
export { plan, apply, pushConfig } from "./push-config.js";
export type { ConfigOperationOptions, PlanOptions, ApplyOptions, PushConfigOptions } from "./options.js";
export type { PushConfirmContext } from "../apply/gate-plan.js";
export type { EngineEvent } from "../model/events.js";
export { toSavedPlan, applyPlan, type SavedPlan, type ApplyPlanOptions } from "./saved-plan.js";
export { createBranch, type CreateBranchOptions, type CreatedBranch } from "./create-branch.js";
export { renderPolicySource, type RenderablePulledConfig } from "../inspect/render-policy-source.js";
