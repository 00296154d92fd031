import { describe, expect, it } from "vitest";
import { ErrorCode, applyPlan, createBranch, defineConfig, isPlatformError, plan, toSavedPlan } from "../../../src/v1.js";
import type { PushResult } from "../../../src/model/plan.js";
import { createFakePlatform } from "../../helpers/fake-platform-api.js";

const config = defineConfig({});

describe("operation options", () => {
  it.each([
    ["neither apiKey nor api", { projectId: "proj-1", branchId: "br-1" }, ErrorCode.MISSING_API_KEY],
    ["a blank apiKey", { projectId: "proj-1", branchId: "br-1", apiKey: "  " }, ErrorCode.MISSING_API_KEY],
    ["a malformed projectId", { projectId: "Proj_1", branchId: "br-1", apiKey: "k" }, ErrorCode.INVALID_OPTIONS],
    ["a concurrency above 16", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 17 }, ErrorCode.INVALID_OPTIONS],
    ["a fractional concurrency", { projectId: "proj-1", branchId: "br-1", apiKey: "k", concurrency: 1.5 }, ErrorCode.INVALID_OPTIONS],
    ["a negative timeout", { projectId: "proj-1", branchId: "br-1", apiKey: "k", timeouts: { requestMs: -1 } }, ErrorCode.INVALID_OPTIONS],
  ])("plan rejects %s before any request", async (_label, options, code) => {
    const err = await plan(config, options).catch((e: unknown) => e);
    expect(isPlatformError(err, code)).toBe(true);
  });

  it("names the operation when the API key is missing", async () => {
    const err = await createBranch(config, { projectId: "proj-1", branchName: "x" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: ErrorCode.MISSING_API_KEY, details: { operation: "createBranch" } });
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
