import type { ApiCustomDomain, ApiDeployment, ApiFunction, ApiTrigger, PlatformApi } from "../../src/api/platform-api.js";
import { type BuildWatcher, type BuildWatcherContext, createBuildWatcher } from "../../src/apply/build-watcher.js";
import { OutcomeUnknownError } from "../../src/errors/index.js";

/** A small in-memory platform for executor tests: functions, buckets, triggers, domains. */
export interface FakePlatform {
  api: PlatformApi;
  /** Calls made, as `method slugOrName`. */
  calls: string[];
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Most builds running at once. */
  maxBuilding: number;
  buckets: Set<string>;
  functions: Map<string, ApiFunction & { env: Set<string> }>;
  triggers: ApiTrigger[];
  domains: ApiCustomDomain[];
  /** Slugs whose next build fails with "boom". */
  failBuilds: Set<string>;
  /** Methods whose next call is applied, then answered with `OutcomeUnknownError`. */
  unknownAfter: Set<string>;
  /** Runs when a request starts (before it is applied), e.g. to abort a signal. */
  onRequest?: (method: string) => void;
  /** Request bodies by method, for assertions on what was sent. */
  bodies: { method: string; body: unknown }[];
  /** Operations passed to `waitForOperations`. */
  waited: string[];
}

/** Builds a fake platform; builds finish after `buildPolls` reads of the function. */
export function createFakePlatform(options: { buildPolls?: number } = {}): FakePlatform {
  const buildPolls = options.buildPolls ?? 2;
  let inFlight = 0;
  const polls = new Map<string, number>();
  const fake: FakePlatform = {
    calls: [], maxInFlight: 0, maxBuilding: 0, buckets: new Set(), functions: new Map(), triggers: [], domains: [],
    failBuilds: new Set(), unknownAfter: new Set(), api: undefined as unknown as PlatformApi, bodies: [], waited: [],
  };
  const building = (): number => [...fake.functions.values()].filter((f) => f.current_deployment?.status === "building").length;
  async function request<T>(method: string, label: string, run: () => T): Promise<T> {
    fake.calls.push(`${method} ${label}`);
    fake.onRequest?.(method);
    inFlight += 1;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    inFlight -= 1;
    const value = run();
    if (fake.unknownAfter.delete(method)) throw new OutcomeUnknownError({ method: "POST", path: label, requestId: "req-test" });
    return value;
  }
  const fn = (slug: string): ApiFunction & { env: Set<string> } => {
    const found = fake.functions.get(slug);
    if (found === undefined) throw Object.assign(new Error(`function ${slug} not found`), { code: "PLATFORM_NOT_FOUND" });
    return found;
  };
  /** A read of a function: a build completes (or fails) after `buildPolls` reads. */
  const read = (f: ApiFunction & { env: Set<string> }): ApiFunction => {
    const d = f.current_deployment;
    if (d?.status === "building") {
      const n = (polls.get(f.slug) ?? 0) + 1;
      polls.set(f.slug, n);
      if (n >= buildPolls) {
        if (fake.failBuilds.delete(f.slug)) Object.assign(d, { status: "failed", error: "boom" });
        else {
          d.status = "completed";
          f.active_deployment = d;
        }
      }
    }
    return structuredClone({ ...f, env: undefined }) as ApiFunction;
  };
  const api: Partial<PlatformApi> = {
    waitForOperations: async ({ operations }) => {
      fake.waited.push(...operations.map((o) => o.id));
      return operations.map((o) => ({ ...o, status: "finished" }));
    },
    updateBranch: (p) => request("updateBranch", p.branchId, () => {
      fake.bodies.push({ method: "updateBranch", body: p.branch });
      return { branch: { id: p.branchId, name: "main", default: false, protected: p.branch.protected ?? false, created_at: "2026-01-01T00:00:00Z" }, operations: [{ id: "op-1", action: "apply_config", status: "running" }] };
    }),
    updateEndpoint: (p) => request("updateEndpoint", p.endpointId, () => {
      fake.bodies.push({ method: "updateEndpoint", body: { endpointId: p.endpointId, endpoint: p.endpoint } });
      return { endpoint: { id: p.endpointId, branch_id: "br-main-1", type: "read_write", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1, suspend_timeout_seconds: 0, ...p.endpoint }, operations: [] };
    }),
    createDataApi: (p) => request("createDataApi", p.databaseName, () => (fake.bodies.push({ method: "createDataApi", body: p }), { alreadyEnabled: false })),
    updateDataApi: (p) => request("updateDataApi", p.databaseName, () => void fake.bodies.push({ method: "updateDataApi", body: { databaseName: p.databaseName, settings: p.settings } })),
    updateTrigger: (p) => request("updateTrigger", p.triggerId, () => {
      fake.bodies.push({ method: "updateTrigger", body: p.trigger });
      const t = fake.triggers.find((x) => x.trigger_id === p.triggerId);
      if (t === undefined) throw Object.assign(new Error("trigger not found"), { code: "PLATFORM_NOT_FOUND" });
      return Object.assign(t, { inherited: false });
    }),
    createRole: (p) => request("createRole", p.name, () => (fake.bodies.push({ method: "createRole", body: { name: p.name, ...p.fields } }), { role: { name: p.name }, operations: [] })),
    createDatabase: (p) => request("createDatabase", p.name, () => (fake.bodies.push({ method: "createDatabase", body: { name: p.name, ...p.fields } }), { database: { name: p.name, owner_name: String(p.fields["owner_name"]) }, operations: [] })),
    updateDatabase: (p) => request("updateDatabase", p.database, () => (fake.bodies.push({ method: "updateDatabase", body: { database: p.database, ...p.fields } }), { database: { name: p.database, owner_name: String(p.fields["owner_name"]) }, operations: [] })),
    listCustomDomains: (p) => request("listCustomDomains", p.branchId, () => [...fake.domains]),
    deleteCustomDomain: (p) => request("deleteCustomDomain", p.domain, () => void (fake.domains = fake.domains.filter((d) => d.domain !== p.domain))),
    createBucket: (p) =>
      request("createBucket", p.name, () => {
        fake.bodies.push({ method: "createBucket", body: { name: p.name, access_level: p.access_level } });
        fake.buckets.add(p.name);
        return { name: p.name, access_level: p.access_level ?? "private" };
      }),
    deleteBucket: (p) => request("deleteBucket", p.bucket, () => void fake.buckets.delete(p.bucket)),
    listBuckets: (p) => request("listBuckets", p.branchId, () => [...fake.buckets].map((name) => ({ name, access_level: "private" }))),
    createDeployment: (p) => request("createDeployment", p.slug, () => {
      const existing = fake.functions.get(p.slug);
      const id = (existing?.current_deployment?.id ?? 0) + 1;
      const env = new Set(existing?.env ?? []);
      for (const [k, v] of Object.entries(p.environment ?? {})) if (v === "") env.delete(k); else env.add(k);
      const deployment: ApiDeployment = { id, status: "building", runtime: p.runtime ?? "nodejs24", environment: [...env].sort() };
      fake.functions.set(p.slug, { slug: p.slug, name: existing?.name ?? p.slug, invocation_url: `https://${p.slug}.test/`, current_deployment: deployment, env, ...(existing?.active_deployment ? { active_deployment: existing.active_deployment } : {}) });
      polls.set(p.slug, 0);
      fake.maxBuilding = Math.max(fake.maxBuilding, building());
      return deployment;
    }),
    getFunction: (p) => request("getFunction", p.slug, () => read(fn(p.slug))),
    listFunctions: (p) => request("listFunctions", p.branchId, () => [...fake.functions.values()].map(read)),
    updateFunction: (p) => request("updateFunction", p.slug, () => Object.assign(fn(p.slug), { name: p.name ?? p.slug })),
    deleteFunction: (p) => request("deleteFunction", p.slug, () => void fake.functions.delete(p.slug)),
    listTriggers: (p) => request("listTriggers", p.branchId, () => [...fake.triggers]),
    createTrigger: (p) => request("createTrigger", p.trigger.name, () => {
      fake.bodies.push({ method: "createTrigger", body: p.trigger });
      const t: ApiTrigger = { trigger_id: `t-${p.trigger.name}`, type: p.trigger.type, function_slug: p.trigger.function_slug, name: p.trigger.name, function_path: p.trigger.function_path ?? "/", enabled: p.trigger.enabled ?? true, inherited: false };
      fake.triggers.push(t);
      return t;
    }),
    createCustomDomain: (p) => request("createCustomDomain", p.domain, () => {
      const d: ApiCustomDomain = { domain: p.domain, entity_type: "function", entity_id: p.entity_id, cname_target: "edge.test" };
      fake.domains = [...fake.domains.filter((x) => x.domain !== p.domain), d];
      return d;
    }),
  };
  fake.api = new Proxy(api as PlatformApi, {
    get(target, name: string) {
      const value = (target as unknown as Record<string, unknown>)[name];
      if (value === undefined) throw new Error(`the fake platform does not implement ${name}`);
      return value;
    },
  });
  return fake;
}

/** The branch's build watcher over the fake's functions list, with real timers. */
export function fakeBuildWatcher(
  fake: FakePlatform,
  timing: BuildWatcherContext["timing"],
  options: { signal?: AbortSignal; request?: <T>(fn: () => Promise<T>) => Promise<T> } = {},
): BuildWatcher {
  const { signal, request = (fn) => fn() } = options;
  return createBuildWatcher({
    listFunctions: () => request(() => fake.api.listFunctions({ projectId: "proj-1", branchId: "br-main-1" })),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)), now: Date.now, timing, ...(signal ? { signal } : {}),
  });
}
