/**
 * fast-check generators of policies for the property tests: valid policies (every rule of
 * policy.md respected) and near-valid ones (one value replaced, removed or added).
 */
import fc from "fast-check";
import { reservedEnvNameIssue } from "../../../src/rules/function-env.js";
import type { BranchTuning, PolicyConfig, Toggle } from "../../../src/v1.js";

const slug = fc.stringMatching(/^[a-z0-9]{1,20}$/);
const envKey = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/).filter((k) => reservedEnvNameIssue(k) === null);
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const topLabel = fc.stringMatching(/^[a-z]{2,6}$/);
const bucketName = fc.string({ minLength: 1, maxLength: 30 }).filter((n) => !n.includes("/") && !/[\u0000-\u001f\u007f-\u009f]/.test(n));
const triggerName = fc.string({ minLength: 1, maxLength: 30 }).filter((n) => !/[\u0000-\u001f\u007f-\u009f]/.test(n));
const computeSize = fc.constantFrom(0.25, 0.5, 1, 2, 4, 8, 16, 24, 56);
const duration = (min: number, max: number) =>
  fc.oneof(
    fc.integer({ min, max }),
    fc.integer({ min: Math.ceil(min / 3600), max: Math.floor(max / 3600) }).map((h) => `${h}h`),
    fc.integer({ min: Math.ceil(min / 86_400), max: Math.floor(max / 86_400) }).filter((d) => d > 0).map((d) => ` ${d}D `),
  );

const cronItem = (min: number, max: number) =>
  fc.oneof(
    fc.constant("*"),
    fc.integer({ min: 1, max }).map((s) => `*/${s}`),
    fc.integer({ min, max }).map(String),
    fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
  );
const cron = fc
  .tuple(cronItem(0, 59), cronItem(0, 23), cronItem(1, 31), cronItem(1, 12), cronItem(0, 7), fc.constantFrom(" ", "  ", "\t"))
  .map(([m, h, dom, mon, dow, sep]) => [m, h, dom, mon, dow].join(sep));

const functionDef = (fnSlug: string) =>
  fc.record(
    {
      name: fc.string({ minLength: 1, maxLength: 40 }).filter((n) => n.trim().length > 0),
      source: fc.constantFrom("./functions/a", "/abs/fn", "fn/index.ts"),
      env: fc.dictionary(envKey, fc.string({ maxLength: 10 }), { maxKeys: 4 }),
      runtime: fc.constant("nodejs24" as const),
      bundler: fc.constantFrom("esbuild" as const),
      sourcemap: fc.boolean(),
      customDomains: fc.uniqueArray(fc.tuple(label, topLabel).map(([l, t]) => `${l}.${fnSlug}.${t}`), { maxLength: 3 }),
      dev: fc.record({ port: fc.integer({ min: 1, max: 65_535 }) }, { requiredKeys: [] }),
    },
    { requiredKeys: ["name", "source"] },
  );

const tuning = (slugs: readonly string[]): fc.Arbitrary<BranchTuning> =>
  fc.record(
    {
      parent: fc.constantFrom("main", "release/1"),
      protected: fc.boolean(),
      ttl: fc.oneof(fc.constant(false as const), duration(3600, 30 * 86_400)),
      postgres: fc.record({
        computeSettings: fc.record(
          {
            autoscalingLimitMinCu: computeSize.filter((v) => v <= 8),
            suspendTimeout: fc.oneof(fc.constant(false as const), fc.constant(0 as const), duration(60, 7 * 86_400)),
          },
          { requiredKeys: [] },
        ),
      }),
      functions: slugs.length === 0 ? fc.constant({}) : fc.dictionary(fc.constantFrom(...slugs), fc.record({ runtime: fc.constant("nodejs24" as const) }, { requiredKeys: [] }), { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  );

/** A policy that satisfies every rule of policy.md (sources relative or absolute). */
export const validPolicy: fc.Arbitrary<PolicyConfig> = fc
  .record({
    slugs: fc.uniqueArray(slug, { maxLength: 4 }),
    buckets: fc.dictionary(bucketName, fc.record({ access: fc.constantFrom("private" as const, "public_read" as const) }, { requiredKeys: [] }), { maxKeys: 3 }),
    auth: fc.option(fc.constantFrom<Toggle>(true, false, {}, { enabled: true }, { enabled: false }), { nil: undefined }),
    external: fc.boolean(),
    prune: fc.option(fc.oneof(fc.boolean(), fc.record({ functions: fc.boolean(), buckets: fc.boolean() }, { requiredKeys: [] })), { nil: undefined }),
    aiGateway: fc.option(fc.boolean(), { nil: undefined }),
  })
  .chain(({ slugs, buckets, auth, external, prune, aiGateway }) => {
    const bucketNames = Object.keys(buckets);
    const functions = fc.tuple(...slugs.map((s) => functionDef(s))).map((defs) => Object.fromEntries(defs.map((d, i) => [slugs[i], d])));
    const trigger =
      slugs.length === 0
        ? fc.constant(undefined)
        : fc.oneof(
            fc.record({ type: fc.constant("schedule" as const), function: fc.constantFrom(...slugs), cron }),
            bucketNames.length === 0
              ? fc.record({ type: fc.constant("schedule" as const), function: fc.constantFrom(...slugs), cron, enabled: fc.boolean() })
              : fc.record({ type: fc.constant("storage_object_created" as const), function: fc.constantFrom(...slugs), bucket: fc.constantFrom(...bucketNames), prefix: fc.string({ minLength: 1, maxLength: 8 }) }),
          );
    const authOn = auth === true || (typeof auth === "object" && auth.enabled !== false);
    const dataApi = external
      ? fc.constantFrom({ authProvider: "external" as const, jwksUrl: "https://id.example.com/jwks" }, false as const)
      : authOn
        ? fc.constantFrom(true as const, { settings: { dbSchemas: ["api", "public"], dbMaxRows: 10 } })
        : fc.constant(undefined);
    return fc.record({
      functions,
      triggers: fc.dictionary(triggerName, trigger, { maxKeys: 3 }).map((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined))),
      dataApi,
      tuning: tuning(slugs),
    }).map(({ functions: fns, triggers, dataApi: api, tuning: tuned }): PolicyConfig => ({
      functions: fns,
      buckets,
      triggers: triggers as PolicyConfig["triggers"],
      ...(auth === undefined ? {} : { auth }),
      ...(api === undefined ? {} : { dataApi: api }),
      ...(prune === undefined ? {} : { prune }),
      ...(aiGateway === undefined ? {} : { aiGateway }),
      branch: () => tuned,
    }));
  });

const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.constantFrom(-1, 0, 0.5, 17, 1e21),
  fc.constantFrom("", " ", "7", "45d", "*.x.com", "0 24 * * *", "nodejs20", "SVC_FINGERPRINT_X"),
  fc.boolean(),
  fc.string({ maxLength: 12 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
  fc.constant(() => ({})),
);

type Segment = string | number;

function pathsOf(value: unknown, prefix: Segment[] = []): Segment[][] {
  const out: Segment[][] = [prefix];
  if (Array.isArray(value)) {
    value.forEach((inner, i) => {
      out.push(...pathsOf(inner, [...prefix, i]));
    });
  }
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) out.push(...pathsOf(inner, [...prefix, key]));
  }
  return out;
}

function mutate(root: unknown, path: readonly Segment[], action: "replace" | "delete" | "add", replacement: unknown, key: string): unknown {
  if (path.length === 0) {
    if (action === "replace") return replacement;
    if (action === "add" && typeof root === "object" && root !== null && !Array.isArray(root)) return { ...root, [key]: replacement };
    return root;
  }
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? mutate(v, rest, action, replacement, key) : v));
  if (typeof root !== "object" || root === null || head === undefined) return root;
  const copy: Record<string, unknown> = { ...root };
  if (rest.length === 0 && action === "delete") delete copy[String(head)];
  else copy[String(head)] = mutate(copy[String(head)], rest, action, replacement, key);
  return copy;
}

/** A valid policy with one value replaced by an odd one, one key removed, or one key added. */
export const nearValidPolicy: fc.Arbitrary<unknown> = fc
  .tuple(validPolicy, fc.nat(), fc.constantFrom("replace" as const, "delete" as const, "add" as const), oddValue, fc.constantFrom("functons", "bucket", "x", "enable", "protected", "env"))
  .map(([policy, index, action, replacement, key]) => {
    const paths = pathsOf(policy);
    return mutate(policy, paths[index % paths.length] ?? [], action, replacement, key);
  });
