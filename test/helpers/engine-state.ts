import type { ResolvedFunction, ResolvedPolicy } from "../../src/model/desired-state.js";
import type { FunctionTag } from "../../src/model/planned-change.js";
import type { LiveFunction, LiveState } from "../../src/model/live-state.js";

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

/** A fingerprint with readable tags. */
export function tagWith(code: string, config: string): Required<FunctionTag> {
  return { zipSha256: `zip-${code}`, codeTag: code, configTag: config, marker: `SVC_FINGERPRINT_${code}_${config}` };
}

/** A live function deployed with `tag`, completed. */
export function liveFn(slug: string, tag: Required<FunctionTag> | null, overrides: Partial<LiveFunction> = {}): LiveFunction {
  return {
    slug,
    name: slug,
    invocationUrl: `https://br-main-1-${slug}.example.test/`,
    envNames: [],
    markers: tag === null ? [] : [tag.marker],
    current: { id: 1, status: "completed", runtime: "nodejs24" },
    active: { id: 1, status: "completed", runtime: "nodejs24" },
    ...overrides,
  };
}

/** The clock used by diff tests. */
export const NOW = new Date("2026-01-02T00:00:00Z");
