/**
 * Random policies for the reliability soak (fast-check). A {@link SoakPolicy} is plain data the
 * state check can compare with; {@link toPolicyConfig} turns it into the `svc.ts` value. Names
 * come from small pools, so successive policies create, update, move and prune the same
 * resources. Each bucket keeps one access level and each trigger one type, because changing
 * those is a blocking conflict by design, not a reliability question.
 */
import fc from "fast-check";
import { defineConfig, type ComputeSize, type PolicyConfig } from "../../src/v1.js";

/** A declared function. */
export interface SoakFunction {
  slug: string;
  name: string;
  /** Which of the two source directories it deploys (a code change when it flips). */
  variant: "v1" | "v2";
  /** Every pool key, `""` for "not set": the policy deletes a variable by declaring it empty (omitted names stay, unmanaged). */
  env: Record<string, string>;
}

/** A declared trigger. */
export interface SoakTrigger {
  name: string;
  function: string;
  enabled: boolean;
  /** Schedule triggers carry `cron`; storage triggers `bucket` and `prefix`. */
  cron?: string;
  bucket?: string;
  prefix?: string;
}

/** One random policy, as data. */
export interface SoakPolicy {
  functions: SoakFunction[];
  buckets: { name: string; access: "private" | "public_read" }[];
  triggers: SoakTrigger[];
  domains: { host: string; function: string }[];
  maxCu: ComputeSize;
}

const SLUGS = ["alpha", "beta", "gamma", "delta", "omega"] as const;
const BUCKETS = [
  { name: "uploads", access: "private" },
  { name: "assets", access: "public_read" },
  { name: "archive", access: "private" },
] as const;
const HOSTS = ["a.soak.example.com", "b.soak.example.com", "c.soak.example.com"] as const;
const ENV_KEYS = ["MODE", "LEVEL", "REGION"] as const;

const functionArb = (slug: string): fc.Arbitrary<SoakFunction> =>
  fc.record({
    slug: fc.constant(slug),
    name: fc.constantFrom(`Fn ${slug}`, `${slug} v2`),
    variant: fc.constantFrom("v1" as const, "v2" as const),
    env: fc.tuple(...ENV_KEYS.map(() => fc.constantFrom("", "one", "two"))).map((values) => Object.fromEntries(ENV_KEYS.map((k, i) => [k, values[i] ?? ""]))),
  });

/** Random policies: up to 5 functions, 3 buckets, 4 triggers, 3 hostnames and a compute maximum. */
export const soakPolicyArb: fc.Arbitrary<SoakPolicy> = fc
  .record({
    functions: fc.subarray([...SLUGS]).chain((slugs) => fc.tuple(...slugs.map(functionArb))),
    buckets: fc.subarray(BUCKETS.map((b) => ({ ...b }))),
    triggerPicks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
    triggerOn: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    enabled: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    cron: fc.constantFrom("0 3 * * *", "*/15 * * * *"),
    prefix: fc.constantFrom("in/", "images/"),
    domainPicks: fc.array(fc.option(fc.nat(), { nil: undefined }), { minLength: 3, maxLength: 3 }),
    maxCu: fc.constantFrom<ComputeSize>(1, 2, 4),
  })
  .map(({ functions, buckets, triggerPicks, triggerOn, enabled, cron, prefix, domainPicks, maxCu }) => {
    const slugs = functions.map((f) => f.slug);
    const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
    const triggers: SoakTrigger[] = [];
    ["nightly", "quarter", "onupload", "onarchive"].forEach((name, i) => {
      const fn = pick(slugs, triggerPicks[i] ?? 0);
      if (fn === undefined || triggerOn[i] !== true) return;
      if (i < 2) {
        triggers.push({ name, function: fn, enabled: enabled[i] ?? true, cron });
        return;
      }
      const bucket = pick(buckets, i);
      if (bucket !== undefined) triggers.push({ name, function: fn, enabled: enabled[i] ?? true, bucket: bucket.name, prefix });
    });
    const domains = HOSTS.flatMap((host, i) => {
      const n = domainPicks[i];
      const fn = n === undefined ? undefined : pick(slugs, n);
      return fn === undefined ? [] : [{ host, function: fn }];
    });
    return { functions, buckets, triggers, domains, maxCu };
  });

/** The `svc.ts` value of a soak policy; `sources` maps a variant to its source directory. Prunes every kind. */
export function toPolicyConfig(policy: SoakPolicy, sources: Record<SoakFunction["variant"], string>): PolicyConfig {
  const functions: NonNullable<PolicyConfig["functions"]> = {};
  for (const f of policy.functions) {
    const hosts = policy.domains.filter((d) => d.function === f.slug).map((d) => d.host);
    functions[f.slug] = { name: f.name, source: sources[f.variant], bundler: "none", env: f.env, ...(hosts.length > 0 ? { customDomains: hosts } : {}) };
  }
  const triggers: NonNullable<PolicyConfig["triggers"]> = {};
  for (const t of policy.triggers) {
    triggers[t.name] =
      t.cron !== undefined
        ? { type: "schedule", function: t.function, cron: t.cron, enabled: t.enabled }
        : { type: "storage_object_created", function: t.function, bucket: t.bucket ?? "", prefix: t.prefix ?? "", enabled: t.enabled };
  }
  return defineConfig({
    buckets: Object.fromEntries(policy.buckets.map((b) => [b.name, { access: b.access }])),
    functions,
    triggers,
    prune: { functions: true, buckets: true, triggers: true, customDomains: true },
    branch: () => ({ postgres: { computeSettings: { autoscalingLimitMaxCu: policy.maxCu } } }),
  });
}
