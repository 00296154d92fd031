/**
 * The bench scenarios (issue 10): `small` (one function), `wide` (24 functions, 6 buckets,
 * 12 triggers, 8 custom domains, auth, Data API and a compute change) and `noop` (the converged
 * `wide`, planned and applied again). Every function deploys the prebuilt source in
 * `fixtures/bench/fn`, so the figures measure the engine and the platform, not esbuild.
 */
import { fileURLToPath } from "node:url";
import { defineConfig, type PolicyConfig } from "../../src/v1.js";

/** The scenario names, in the order the bench prints them. */
export const SCENARIOS = ["small", "wide", "noop"] as const;
/** One scenario name. */
export type ScenarioName = (typeof SCENARIOS)[number];

/** The base directory of every scenario's relative `source`. */
export const BENCH_BASE_DIR = fileURLToPath(new URL("../../fixtures/bench/", import.meta.url));

const pad = (n: number): string => String(n).padStart(2, "0");

/** `small`: one function with an env var. */
export function smallPolicy(): PolicyConfig {
  return defineConfig({
    functions: { hello: { name: "Hello", source: "./fn", bundler: "none", env: { MODE: "bench" } } },
  });
}

/** Planned once before each measurement to load the library's modules; shares no fingerprint with the scenarios. */
export function warmUpPolicy(): PolicyConfig {
  return defineConfig({
    functions: { warmup: { name: "Warm-up", source: "./fn", bundler: "none", env: { MODE: "warm-up" } } },
  });
}

/** `wide`: 24 functions, 6 buckets, 12 triggers (6 schedule, 6 storage), 8 domains, auth, Data API, compute. */
export function widePolicy(): PolicyConfig {
  const functions: NonNullable<PolicyConfig["functions"]> = {};
  for (let i = 1; i <= 24; i++) {
    const slug = `fn${pad(i)}`;
    functions[slug] = {
      name: `Function ${pad(i)}`,
      source: "./fn",
      bundler: "none",
      env: { MODE: "bench", INDEX: String(i) },
      ...(i <= 8 ? { customDomains: [`${slug}.bench.example.com`] } : {}),
    };
  }
  const buckets: NonNullable<PolicyConfig["buckets"]> = {};
  const triggers: NonNullable<PolicyConfig["triggers"]> = {};
  for (let i = 1; i <= 6; i++) {
    buckets[`bucket-${i}`] = { access: i % 2 === 0 ? "public_read" : "private" };
    triggers[`nightly${i}`] = { type: "schedule", function: `fn${pad(i)}`, cron: `${i} 3 * * *` };
    triggers[`upload${i}`] = { type: "storage_object_created", function: `fn${pad(i + 6)}`, bucket: `bucket-${i}`, prefix: "in/" };
  }
  return defineConfig({
    auth: true,
    dataApi: { settings: { dbSchemas: ["public"], dbMaxRows: 500 } },
    buckets,
    functions,
    triggers,
    branch: () => ({ postgres: { computeSettings: { autoscalingLimitMaxCu: 4 } } }),
  });
}

/** The policy a scenario plans and applies (`noop` applies `wide` to a branch where it converged). */
export function scenarioPolicy(name: ScenarioName): PolicyConfig {
  return name === "small" ? smallPolicy() : widePolicy();
}
