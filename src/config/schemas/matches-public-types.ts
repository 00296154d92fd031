/**
 * Compile-time only: the public authoring types (`policy-types.ts`, what users write) and the
 * schemas that validate a policy (built from the kind descriptors where a kind has one) must
 * declare the same keys with the same value types. A field added to one and not the other
 * fails `tsc` here, naming the pair. Nothing imports this module; type-checking it is the test.
 */
import type * as z from "zod";
import type { AUTH_FIELDS } from "../../kinds/auth/fields.js";
import type { BRANCH_SETTINGS } from "../../kinds/branch/fields.js";
import type { COMPUTE_SETTINGS } from "../../kinds/compute/fields.js";
import type { BUCKET_FIELDS } from "../../kinds/bucket/fields.js";
import type { DataApiSettings } from "../../kinds/dataApi/fields.js";
import type { DatabaseValues } from "../../kinds/database/fields.js";
import type { DOMAIN_HOSTNAME } from "../../kinds/domain/fields.js";
import type { FieldDescriptor, ValueOf } from "../../model/kinds/field.js";
import type { FunctionValues } from "../../kinds/function/fields.js";
import type { RoleValues } from "../../kinds/role/fields.js";
import type { SCHEDULE_TRIGGER_FIELDS, STORAGE_TRIGGER_FIELDS, TRIGGER_FIELDS } from "../../kinds/trigger/fields.js";
import type {
  BranchTuning,
  BucketDef,
  ComputeSettings,
  DataApiDef,
  DataApiSettingsDef,
  DatabaseDef,
  FunctionDef,
  LifecycleHooks,
  RoleDef,
  ScheduleTriggerDef,
  StorageTriggerDef,
  TriggerDef,
} from "../policy-types.js";
import type { branchTuningSchema } from "./branch-tuning.js";
import type { BranchSettingsDef } from "../../kinds/branch/policy.js";
import type { ComputeTuning, computeTuningShape } from "../../kinds/compute/policy.js";
import type { FunctionTuning, FunctionTuningKeys, ParsedFunctionTuning, functionTuningShape } from "../../kinds/function/policy.js";
import type { bucketsSchema } from "../../kinds/bucket/policy.js";
import type { dataApiSchema } from "../../kinds/dataApi/policy.js";
import type { functionDefSchema } from "../../kinds/function/policy.js";
import type { hooksSchema } from "./hooks.js";
import type { KindTunings } from "../../kinds/index.js";
import type { triggerDefSchema } from "../../kinds/trigger/policy.js";

/** `true` when A and B are the same type (modifiers included). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Every key of every member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;
/** Compiles only when `T` is `true`. */
type Assert<T extends true> = T;
type Parsed<S extends z.ZodType> = Exclude<z.output<S>, undefined>;
/** The policy keys of a descriptor. */
type PolicyKeys<F extends readonly FieldDescriptor[]> = F[number]["policyKey"];
/** A descriptor's fields as the policy states them: policy key → value type (its `policyRule` when it has one). */
type PolicyValues<F extends readonly FieldDescriptor[]> = {
  [D in F[number] as D["policyKey"]]: ValueOf<D extends { policyRule: infer P extends FieldDescriptor["rule"] } ? P : D["rule"]>;
};
/** An object type with its intersections merged, so `Same` compares members. */
type Flat<T> = { [K in keyof T]: T[K] };

/** Each entry fails to compile when its pair disagrees. */
export type PublicTypesMatchSchemas = [
  Assert<Same<KeysOf<Exclude<DataApiDef, boolean>>, KeysOf<Parsed<typeof dataApiSchema>>>>,
  Assert<Same<Required<DataApiSettingsDef>, DataApiSettings>>,
  Assert<Same<KeysOf<Required<Parsed<typeof dataApiSchema>>["settings"]>, keyof DataApiSettings>>,
  Assert<Same<KeysOf<FunctionDef>, KeysOf<Parsed<typeof functionDefSchema>>>>,
  Assert<Same<keyof LifecycleHooks, keyof Parsed<typeof hooksSchema>>>,
  Assert<Same<KeysOf<Required<LifecycleHooks>[keyof LifecycleHooks]>, KeysOf<Required<Parsed<typeof hooksSchema>>[keyof LifecycleHooks]>>>,
  Assert<Same<KeysOf<TriggerDef>, KeysOf<Parsed<typeof triggerDefSchema>>>>,
  Assert<Same<KeysOf<BucketDef>, KeysOf<Parsed<typeof bucketsSchema>[string]>>>,
  // The keys kinds add to the tuning (`KindTunings`) are validated by their own schemas (`KindTuning`).
  Assert<Same<Exclude<KeysOf<BranchTuning>, keyof KindTunings>, KeysOf<Parsed<typeof branchTuningSchema>>>>,
  // Each kind's keys of the tuning: its public type and its schemas.
  Assert<Same<keyof BranchSettingsDef, PolicyKeys<typeof BRANCH_SETTINGS>>>,
  Assert<Same<keyof ComputeTuning, keyof typeof computeTuningShape>>,
  Assert<Same<keyof FunctionTuningKeys, keyof typeof functionTuningShape>>,
  Assert<Same<keyof NonNullable<FunctionTuningKeys["preview"]>, KeysOf<Parsed<(typeof functionTuningShape)["preview"]>>>>,
  Assert<Same<keyof FunctionTuning, keyof ParsedFunctionTuning>>,
  Assert<Same<keyof ComputeSettings, PolicyKeys<typeof COMPUTE_SETTINGS>>>,
  // The auth integration's fields are stated under `dataApi` (its database).
  Assert<Same<Extract<KeysOf<Exclude<DataApiDef, boolean>>, PolicyKeys<typeof AUTH_FIELDS>>, PolicyKeys<typeof AUTH_FIELDS>>>,
  Assert<Same<Required<RoleDef>, RoleValues>>,
  Assert<Same<DatabaseDef, DatabaseValues>>,
  Assert<Same<Required<BucketDef>, PolicyValues<typeof BUCKET_FIELDS>>>,
  // A function's declarative fields; `source`, `bundler`, `sourcemap`, `env`, `dev` feed the bundle and the deployment.
  Assert<Same<Required<Pick<FunctionDef, keyof FunctionValues>>, FunctionValues>>,
  Assert<Same<Flat<Required<Omit<ScheduleTriggerDef, "type">>>, Flat<PolicyValues<typeof TRIGGER_FIELDS> & PolicyValues<typeof SCHEDULE_TRIGGER_FIELDS>>>>,
  Assert<Same<Flat<Required<Omit<StorageTriggerDef, "type">>>, Flat<PolicyValues<typeof TRIGGER_FIELDS> & PolicyValues<typeof STORAGE_TRIGGER_FIELDS>>>>,
  // A function's `customDomains` lists the domain kind's keys.
  Assert<Same<NonNullable<FunctionDef["customDomains"]>[number], ValueOf<(typeof DOMAIN_HOSTNAME)["rule"]>>>,
];
