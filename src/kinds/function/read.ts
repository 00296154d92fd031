/** Function records → the live state's functions: the function kind's read. Pure. */
import type { KindRead } from "../../inspect/read-live-state.js";
import type { LiveContributionOf } from "../index.js";
import type { ApiDeployment, ApiFunction } from "../../api/wire-types.js";
import { compareCodePoints, sortBy } from "../../inspect/normalize.js";
import type { Deployment, LiveFunction } from "./fields.js";
import { FINGERPRINT_MARKER_PREFIX } from "../../rules/environment.js";

/** Functions sorted by slug, env names split from fingerprint markers. */
export function normalizeFunctions(functions: readonly ApiFunction[]): LiveFunction[] {
  return sortBy(functions.map(normalizeFunction), (f) => f.slug);
}

function normalizeFunction(fn: ApiFunction): LiveFunction {
  const names = fn.current_deployment?.environment ?? [];
  const markers = names.filter((n) => n.startsWith(FINGERPRINT_MARKER_PREFIX)).sort(compareCodePoints);
  const envNames = names.filter((n) => !n.startsWith(FINGERPRINT_MARKER_PREFIX)).sort(compareCodePoints);
  return {
    slug: fn.slug,
    name: fn.name,
    invocationUrl: fn.invocation_url,
    envNames,
    markers,
    ...(fn.current_deployment === undefined ? {} : { current: normalizeDeployment(fn.current_deployment) }),
    ...(fn.active_deployment === undefined ? {} : { active: normalizeDeployment(fn.active_deployment) }),
  };
}

function normalizeDeployment(deployment: ApiDeployment): Deployment {
  return {
    id: deployment.id,
    status: deployment.status as Deployment["status"],
    runtime: deployment.runtime,
    ...(deployment.error === undefined ? {} : { error: deployment.error }),
  };
}

/**
 * The function kind's read: the functions when the policy declares some or states their prune
 * flag, with the parent's (inherited detection); the triggers and custom domains too when pruning
 * (what uses a function goes with it).
 */
export const functionRead: KindRead<LiveContributionOf<"function">> = {
  pull: { needs: { functions: true } },
  needs: ({ functions, prune, pruneStated }) => ({
    ...(functions.length > 0 || prune.functions || pruneStated.functions ? { functions: true } : {}),
    ...(prune.functions || pruneStated.functions ? { parentFunctions: true } : {}),
    ...(prune.functions ? { triggers: true, customDomains: true } : {}),
  }),
  slice: ({ functions, parentFunctions }) => ({
    ...(functions === undefined ? {} : { functions: normalizeFunctions(functions) }),
    ...(parentFunctions === undefined ? {} : { parentFunctionSlugs: parentFunctions.map((f) => f.slug).sort(compareCodePoints) }),
  }),
};
