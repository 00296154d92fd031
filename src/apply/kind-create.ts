/**
 * What a kind sets on a branch that `createBranch` creates from the policy, in its one create
 * request (`KindModule.create`), and what it refuses before anything is sent. Pure; the engine
 * visits the kinds in rank order.
 */
import type { ApiProject, CreateBranchParams, EndpointSettingsInput } from "../api/platform-api.js";
import type { ResolvedPolicy } from "../model/desired-state.js";
import type { Json } from "../model/json.js";
import type { AppliedChangeDetails, ConflictReport } from "../model/plan.js";

/** A kind's part of the create request and of the `create:branch` change. */
export interface KindCreatePart {
  /** Its settings of the new branch record. */
  branch?: Omit<NonNullable<CreateBranchParams["branch"]>, "name" | "parent_id">;
  /** Its settings of the branch's read-write compute. */
  endpoint?: EndpointSettingsInput;
  /** The values the `create:branch` change shows of them (its `after`; their keys are among its `fields`). */
  after: Record<string, Json>;
  /** What the applied `create:branch` change reports of them. */
  details?: AppliedChangeDetails;
}

/** A kind's stage in `createBranch`. */
export interface KindCreate {
  /** Its part of the create request, from the resolved policy and the time of the request. */
  readonly part?: (desired: ResolvedPolicy, now: Date) => KindCreatePart;
  /** A blocking conflict that stops the creation before anything is created (the project's defaults apply to what the policy leaves out). */
  readonly conflict?: (desired: ResolvedPolicy, project: ApiProject, branchName: string) => ConflictReport | undefined;
}
