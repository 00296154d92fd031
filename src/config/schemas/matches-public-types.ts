/**
 * Compile-time only: the public authoring types of what is not a kind's (`policy-types.ts`: the
 * hooks, the branch tuning's own keys) and the schemas that validate them declare the same keys.
 * Each kind checks its own pairs beside its schemas (`PolicyTypesMatchSchemas` in
 * `kinds/<kind>/policy.ts`). Nothing imports this module; type-checking it is the test.
 */
import type { KindTunings } from "../../kinds/index.js";
import type { BranchTuning, LifecycleHooks } from "../policy-types.js";
import type { branchTuningSchema } from "./branch-tuning.js";
import type { hooksSchema } from "./hooks.js";
import type { Assert, KeysOf, Parsed, Same } from "./type-match.js";

/** Each entry fails to compile when its pair disagrees. */
export type PublicTypesMatchSchemas = [
  Assert<Same<keyof LifecycleHooks, keyof Parsed<typeof hooksSchema>>>,
  Assert<Same<KeysOf<Required<LifecycleHooks>[keyof LifecycleHooks]>, KeysOf<Required<Parsed<typeof hooksSchema>>[keyof LifecycleHooks]>>>,
  // The keys kinds add to the tuning (`KindTunings`) are validated by their own schemas (`KindTuning`).
  Assert<Same<Exclude<KeysOf<BranchTuning>, keyof KindTunings>, KeysOf<Parsed<typeof branchTuningSchema>>>>,
];
