/**
 * Compile-time checks that a public authoring type (what users write in `svc.ts`) and the schema
 * that validates it declare the same keys with the same value types. Each kind states its own
 * pairs beside its schemas, as an exported tuple of `Assert<…>`; a field added to one side only
 * fails `tsc` there, naming the pair. Types only: nothing here exists at run time.
 */
import type * as z from "zod";
import type { FieldDescriptor, ValueOf } from "../../model/kinds/field.js";

/** `true` when A and B are the same type (modifiers included). */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Every key of every member of a union. */
export type KeysOf<T> = T extends unknown ? keyof T : never;
/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;
/** What a schema outputs, `undefined` left out. */
export type Parsed<S extends z.ZodType> = Exclude<z.output<S>, undefined>;
/** The policy keys of a descriptor. */
export type PolicyKeys<F extends readonly FieldDescriptor[]> = F[number]["policyKey"];
/** A descriptor's fields as the policy states them: policy key → value type (its `policyRule` when it has one). */
export type DescribedPolicyValues<F extends readonly FieldDescriptor[]> = {
  [D in F[number] as D["policyKey"]]: ValueOf<D extends { policyRule: infer P extends FieldDescriptor["rule"] } ? P : D["rule"]>;
};
/** An object type with its intersections merged, so `Same` compares members. */
export type Flat<T> = { [K in keyof T]: T[K] };
