import { describe, expect, it } from "vitest";
import { ErrorCode, apply, applyPlan, createBranch, createPlatformApi, defineConfig, inspect, isPlatformError, plan, toSavedPlan } from "../../../src/v1.js";
import { prepareRuntime } from "../../../src/engine/options.js";
import type { PushResult } from "../../../src/model/plan.js";
import { createFakePlatform } from "../../helpers/fake-platform-api.js";

const config = defineConfig({});

describe("operation options", () => {
  it.each([
    ["neither apiKey nor api", { projectId: "proj-1", branchId: "br-1" }, ErrorCode.MISSING_API_KEY],
    ["a blank apiKey", { projectId: "proj-1", branchId: "br-1", apiKey: "  " }, ErrorCode.MISSING_API_KEY],
    ["a malformed projectId", { projectId: "Proj_1", branchId: "br-1", apiKey: "k" }, ErrorCode.INVALID_OPTIONS],
    ["a concurrency above 64", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 65 }, ErrorCode.INVALID_OPTIONS],
    ["a fractional concurrency", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 1.5 }, ErrorCode.INVALID_OPTIONS],
    ["a negative timeout", { projectId: "proj-1", branchId: "br-1", apiKey: "k", timeouts: { requestMs: -1 } }, ErrorCode.INVALID_OPTIONS],
  ])("plan rejects %s before any request", async (_label, options, code) => {
    const err = await plan(config, options).catch((e: unknown) => e);
    expect(isPlatformError(err, code)).toBe(true);
  });

  it.each([
    ["an omitted branchId", { projectId: "proj-1", apiKey: "k" }, "branchId"],
    ["a numeric branchId", { projectId: "proj-1", branchId: 7, apiKey: "k" }, "branchId"],
    ["an empty branchId", { projectId: "proj-1", branchId: "", apiKey: "k" }, "branchId"],
    ["an omitted projectId", { branchId: "br-1", apiKey: "k" }, "projectId"],
    ["a numeric projectId", { projectId: 12, branchId: "br-1", apiKey: "k" }, "projectId"],
    ["an empty cacheDir", { projectId: "proj-1", branchId: "br-1", apiKey: "k", cacheDir: " " }, "cacheDir"],
    ["a cacheDir that is not a string", { projectId: "proj-1", branchId: "br-1", apiKey: "k", cacheDir: true }, "cacheDir"],
  ])("plan, apply, inspect and applyPlan reject %s with PLATFORM_INVALID_OPTIONS before any request", async (_label, options, option) => {
    let requests = 0;
    const counting: typeof fetch = async () => {
      requests += 1;
      return new Response("{}", { status: 500 });
    };
    const api = createPlatformApi({ apiKey: "k", fetch: counting });
    const withApi = { ...options, api } as never;
    const errors = await Promise.all([
      plan(config, withApi).catch((e: unknown) => e),
      apply(config, withApi).catch((e: unknown) => e),
      inspect(withApi).catch((e: unknown) => e),
      applyPlan({ formatVersion: 1, projectId: "proj-1", branchId: "br-1" } as never, { ...(withApi as object), config } as never).catch((e: unknown) => e),
    ]);
    for (const err of errors) expect(err).toMatchObject({ code: ErrorCode.INVALID_OPTIONS, details: { option } });
    expect(requests).toBe(0);
  });

  it("names the operation when the API key is missing", async () => {
    const err = await createBranch(config, { projectId: "proj-1", branchName: "x" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.MISSING_API_KEY, details: { operation: "createBranch" } });
  });

  it.each([1, 64])("accepts concurrency %s (the documented range is 1–64)", async (concurrency) => {
    const fake = createFakePlatform();
    const err = await plan(config, { projectId: "proj-1", branchId: "br-1", api: fake.api, concurrency, maxConcurrency: 64 }).catch((e: unknown) => e);
    expect(isPlatformError(err, ErrorCode.INVALID_OPTIONS)).toBe(false);
  });

  it("lets in-flight requests grow to 128 by default, and refuses a maxConcurrency above 128 naming the range", () => {
    const runtime = prepareRuntime("plan", { projectId: "proj-1", branchId: "br-1", apiKey: "k" });
    expect(runtime.maxConcurrency).toBe(128);
    expect(prepareRuntime("plan", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 4, maxConcurrency: 4 }).maxConcurrency).toBe(4);
    expect(prepareRuntime("plan", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 64, maxConcurrency: 128 }).maxConcurrency).toBe(128);
    expect(() => prepareRuntime("plan", { projectId: "proj-1", branchId: "br-1", apiKey: "k", maxConcurrency: 129 })).toThrow(
      "Invalid option maxConcurrency: must be an integer from concurrency (8) to 128 (got 129).",
    );
    // `concurrency` keeps its own range: 128 requests may be in flight, but never from the start.
    expect(() => prepareRuntime("plan", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 65, maxConcurrency: 128 })).toThrow(/concurrency: must be an integer from 1 to 64/);
  });

  it.each([
    ["maxConcurrency", { maxConcurrency: Number.NaN }, "Invalid option maxConcurrency: must be an integer from concurrency (8) to 128 (got NaN).", "NaN"],
    ["maxConcurrency", { maxConcurrency: Number.POSITIVE_INFINITY }, "Invalid option maxConcurrency: must be an integer from concurrency (8) to 128 (got Infinity).", "Infinity"],
    ["concurrency", { concurrency: Number.NaN }, "Invalid option concurrency: must be an integer from 1 to 64 (got NaN).", "NaN"],
    ["timeouts.requestMs", { timeouts: { requestMs: Number.NEGATIVE_INFINITY } }, "Invalid option timeouts.requestMs: must be a positive number of milliseconds (got -Infinity).", "-Infinity"],
    ["polling.initialMs", { polling: { initialMs: Number.NaN } }, "Invalid option polling.initialMs (NaN): must be a positive number of milliseconds.", "NaN"],
  ])("names a non-finite %s as the caller passed it (NaN, not null), with JSON-safe details", (option, given, message, shown) => {
    let err: unknown;
    try {
      prepareRuntime("plan", { projectId: "proj-1", branchId: "br-1", apiKey: "k", ...given });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: ErrorCode.INVALID_OPTIONS, message, details: { option, value: shown } });
    expect(JSON.parse(JSON.stringify((err as { details: unknown }).details))).toEqual({ option, value: shown });
  });

  it("uses an injected api as is", async () => {
    const fake = createFakePlatform();
    const err = await plan(config, { projectId: "proj-1", branchId: "br-1", api: fake.api }).catch((e: unknown) => e);
    expect((err as Error).message).toContain("does not implement getProject");
  });

  it("toSavedPlan refuses a result that is not a dry run of this process", () => {
    const applied = { dryRun: false } as PushResult;
    expect(() => toSavedPlan(applied)).toThrow(/result of plan/);
  });

  it("applyPlan refuses an unknown format version first", async () => {
    const err = await applyPlan({ formatVersion: 2 } as never, { projectId: "proj-1", branchId: "br-1", apiKey: "k", config }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.STALE_PLAN, details: { reason: "format" } });
  });
});
