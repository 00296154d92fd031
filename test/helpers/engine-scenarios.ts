import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlatformApi } from "../../src/api/platform-api.js";
import type { PushResult } from "../../src/model/plan.js";

/** The repository's engine scenarios: `fixtures/<name>/` with `svc.ts`, `live.json`, `scenario.json`. */
export const FIXTURES_DIR = new URL("../../fixtures/", import.meta.url).pathname;

/** What `scenario.json` declares. */
export interface ScenarioSpec {
  description: string;
  /** The branch to plan and apply; @default the seed's default branch */
  branchId?: string;
  /** A policy applied first (with updateExisting), e.g. to deploy a function before changing it. */
  setup?: string;
  apply?: { updateExisting?: boolean; allowDataLoss?: boolean };
  /** Slugs whose archive the test corrupts on upload, so their build fails on the platform. */
  corruptZip?: string[];
  /** Without `error`, apply must converge: a second plan is empty. `details`: change id → fields its AppliedChange details must hold. */
  expectApply: { error?: string; failed?: string[]; skipped?: string[]; details?: Record<string, Record<string, unknown>> };
}

/** One discovered scenario. */
export interface Scenario {
  name: string;
  dir: string;
  spec: ScenarioSpec;
  seed: unknown;
}

/** Every `fixtures/<name>/` holding `scenario.json`, `svc.ts` and `live.json`, sorted by name. */
export function discoverScenarios(): Scenario[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(FIXTURES_DIR, d.name, "scenario.json")))
    .map((d) => {
      const dir = join(FIXTURES_DIR, d.name);
      return {
        name: d.name,
        dir,
        spec: JSON.parse(readFileSync(join(dir, "scenario.json"), "utf8")) as ScenarioSpec,
        seed: JSON.parse(readFileSync(join(dir, "live.json"), "utf8")) as unknown,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The stable part of a plan that `expected-plan.json` records (no reasons: they quote timestamps). */
export function planSnapshot(result: PushResult): unknown {
  return {
    changes: result.changes.map((c) => ({ id: c.id, class: c.class, fields: c.fields, dependsOn: c.dependsOn })),
    conflicts: result.conflicts.map((c) => ({ code: c.code, kind: c.kind, identifier: c.identifier, field: c.field, blocking: c.blocking })),
    unmanaged: result.unmanaged.map((u) => u.address),
    warnings: result.warnings.map((w) => w.code),
  };
}

/**
 * Compares with `expected-plan.json`, or rewrites it under `SVC_UPDATE_FIXTURES=1` (refused
 * when `CI` is set). Returns the expected value to assert against.
 */
export function expectedPlan(scenario: Scenario, actual: unknown): unknown {
  const file = join(scenario.dir, "expected-plan.json");
  if (process.env.SVC_UPDATE_FIXTURES === "1") {
    if (process.env.CI) throw new Error("SVC_UPDATE_FIXTURES=1 is refused under CI: update expected plans locally and commit them");
    writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    return actual;
  }
  if (!existsSync(file)) throw new Error(`${file} is missing; run the scenario tests with SVC_UPDATE_FIXTURES=1 to write it, then review it`);
  return JSON.parse(readFileSync(file, "utf8")) as unknown;
}

/** Wraps `api` so uploads for `slugs` carry bytes that are not a ZIP (the build then fails). */
export function corruptingUploads(api: PlatformApi, slugs: readonly string[]): PlatformApi {
  if (slugs.length === 0) return api;
  return {
    ...api,
    createDeployment: (params) =>
      api.createDeployment(slugs.includes(params.slug) && params.zip ? { ...params, zip: new TextEncoder().encode("not a zip") } : params),
  };
}
