/**
 * The function resource kind's declarative fields (docs/policy.md#functions): the display name
 * and the runtime, named once in policy, model and wire vocabulary. The bundling inputs
 * (`source`, `bundler`, `sourcemap`), `env` (values never leave the policy; the platform reports
 * names only) and `customDomains` (their own kind, `domain.ts`) are not wire fields of a function.
 * The diff's before/after, the handlers' request bodies and the pull read it. Plain data.
 */
import type { ResolvedFunction } from "../../model/desired-state.js";
import { type ModelValues, defineField } from "../../model/kinds/field.js";

/** A function's declarative fields; the runtime travels with each deployment. Changing either is additive. */
export const FUNCTION_FIELDS = [
  defineField("name", "name", { type: "string", nonEmpty: true }, "additive"),
  defineField("runtime", "runtime", { type: "enum", values: ["nodejs24"] }, "additive"),
] as const;

/** A function's declarative fields in model (= policy) vocabulary. */
export type FunctionValues = ModelValues<typeof FUNCTION_FIELDS>;

/** What an omitted field resolves to (`name` is required). */
export const FUNCTION_DEFAULTS = { runtime: "nodejs24" } as const satisfies Partial<FunctionValues>;

/** The operations on function `op.slug`: `planned`, its declarative fields. */
export interface FunctionOperations {
  "function-deploy": {
    op: {
      slug: string;
      /** Send a deployment at all (false: only the display name changes). */
      deploy: boolean;
      /** Upload the archive (false: runtime + env only, the archive is inherited). */
      withZip: boolean;
      /** Send the display-name PATCH after the build. */
      rename: boolean;
      /** The marker names to write (the main one first); absent when the plan deferred the env tag: the executor derives them before the upload. */
      markers?: string[];
      /** Markers on the live function other than `markers`: deleted in the same deployment. */
      staleMarkers: string[];
      /** Part of the internal digest of saved plans; never rendered. */
      envTag?: string;
      zipSha256: string;
    };
    planned: FunctionValues;
  };
  "function-delete": { op: { slug: string }; planned: Record<never, never> };
}

/** A deployed function: env names (markers split out) and its deployments. */
export interface LiveFunction {
  slug: string;
  name: string;
  invocationUrl: string;
  /** Env var names without the `SVC_FINGERPRINT_` markers. */
  envNames: string[];
  /** The deployment's fingerprint marker names (`SVC_FINGERPRINT_…`, read by `diff/fingerprint-markers.ts`). */
  markers: string[];
  current?: Deployment;
  active?: Deployment;
}

/** A function deployment as the platform reports it. */
export interface Deployment {
  id: number;
  status: "pending" | "building" | "completed" | "failed";
  runtime: string;
  error?: string;
}

/** The function kind's fields of the live state (`LiveState`). */
export interface FunctionLiveFields {
  functions?: LiveFunction[];
  /** Slugs listed on the parent branch, sorted; read only when pruning functions (inherited detection). */
  parentFunctionSlugs?: string[];
}

/** The function kind's fields of the resolved policy (`ResolvedPolicy`). */
export interface FunctionResolvedFields {
  /** Whether the policy turns the AI gateway on (`aiGateway`); the functions' environment reads it. */
  aiGateway: boolean;
  /** The declared functions with this branch's overrides, sorted by slug. */
  functions: ResolvedFunction[];
}
