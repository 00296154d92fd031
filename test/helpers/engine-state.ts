import type { ResolvedFunction, ResolvedPolicy } from "../../src/model/desired-state.js";
import { markerNames } from "../../src/diff/fingerprint-markers.js";
import type { FunctionTag } from "../../src/model/planned-change.js";
import type { LiveFunction } from "../../src/kinds/function/fields.js";
import type { LiveState } from "../../src/model/live-state.js";

/** A resolved policy that manages nothing, with `overrides` applied. */
export function policyWith(overrides: Partial<ResolvedPolicy> = {}): ResolvedPolicy {
  return {
    target: { name: "main", id: "br-main-1", exists: true, isDefault: false },
    baseDir: "/repo",
    auth: "unmanaged",
    authDeclaredOff: false,
    dataApi: { state: "unmanaged" },
    aiGateway: false,
    buckets: [],
    functions: [],
    triggers: [],
    roles: [],
    databases: [],
    prune: { functions: false, triggers: false, customDomains: false, buckets: false, roles: false, databases: false },
    pruneStated: { functions: false, triggers: false, customDomains: false, buckets: false, roles: false, databases: false },
    branch: {},
    deprecatedKeys: [],
    ...overrides,
  };
}

/** A declared function with sensible defaults. */
export function fnWith(slug: string, overrides: Partial<ResolvedFunction> = {}): ResolvedFunction {
  return {
    slug,
    name: slug,
    sourcePath: `/repo/functions/${slug}`,
    env: {},
    runtime: "nodejs24",
    bundler: "esbuild",
    sourcemap: false,
    customDomains: [],
    ...overrides,
  };
}

/** A live branch with one compute and the given collections, created 2026-01-01. */
export function liveWith(overrides: Partial<LiveState> = {}): LiveState {
  return {
    project: { id: "proj-1", name: "demo", regionId: "aws-us-east-2", pgVersion: 17, defaultCompute: {} },
    branch: { id: "br-main-1", name: "main", createdAt: "2026-01-01T00:00:00Z", protected: false, isDefault: false },
    compute: { endpointId: "ep-1", minCu: 0.25, maxCu: 2, suspendTimeoutSeconds: 0 },
    databases: ["neondb"],
    ...overrides,
  };
}

/** A full fingerprint: the env parts derived and the marker names known. */
export type TestTag = FunctionTag & { envTag: string; markers: string[] };

/**
 * A fingerprint with readable tags: env tag `EH<env>` (hardened) unless `env` starts with its mode
 * (`EK…`), with `varTags` (name → 8 hex) as keyed fingerprints have them.
 */
export function tagWith(code: string, env: string, varTags?: Record<string, string>): TestTag {
  const envTag = /^E[KH]/.test(env) ? env : `EH${env}`;
  return {
    zipSha256: `zip-${code}`, codeTag: code, envTag, legacyConfigTag: `H${env.replace(/[^0-9A-F]/g, "")}`,
    markers: markerNames(code, envTag, Object.values(varTags ?? {})),
    ...(varTags ? { varTags } : {}),
  };
}

/** The one marker an older svc-config wrote: `SVC_FINGERPRINT_<code>_<config>`. */
export function legacyMarker(code: string, config: string): string {
  return `SVC_FINGERPRINT_${code}_${config}`;
}

/** A live function deployed with `tag`, completed. */
export function liveFn(slug: string, tag: TestTag | null, overrides: Partial<LiveFunction> = {}): LiveFunction {
  return {
    slug,
    name: slug,
    invocationUrl: `https://br-main-1-${slug}.example.test/`,
    envNames: [],
    markers: tag === null ? [] : tag.markers,
    current: { id: 1, status: "completed", runtime: "nodejs24" },
    active: { id: 1, status: "completed", runtime: "nodejs24" },
    ...overrides,
  };
}

/** The clock used by diff tests. */
export const NOW = new Date("2026-01-02T00:00:00Z");
