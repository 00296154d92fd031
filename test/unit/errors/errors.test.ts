import { describe, expect, it } from "vitest";
import {
  ApiError,
  ConfigValidationError,
  ErrorCode,
  OutcomeUnknownError,
  PlatformError,
  PushAbortedError,
  isPlatformError,
} from "../../../src/v1.js";
import { errorCodeForStatus } from "../../../src/errors/api-errors.js";

describe("isPlatformError", () => {
  it("recognises errors of this package and filters by code", () => {
    const err = new PlatformError(ErrorCode.MISSING_API_KEY, "no key");
    expect(isPlatformError(err)).toBe(true);
    expect(isPlatformError(err, ErrorCode.MISSING_API_KEY)).toBe(true);
    expect(isPlatformError(err, ErrorCode.CONFLICT)).toBe(false);
  });

  it("recognises an error from a second copy of the package by its code alone", () => {
    const foreign = Object.assign(new Error("from another copy"), { code: "PLATFORM_PUSH_CONFLICT" });
    expect(isPlatformError(foreign, ErrorCode.PUSH_CONFLICT)).toBe(true);
  });

  it.each([
    ["a plain error", new Error("x")],
    ["a Node system error", Object.assign(new Error("x"), { code: "ECONNRESET" })],
    ["null", null],
    ["a string", "PLATFORM_CONFLICT"],
  ])("rejects %s", (_label, value) => {
    expect(isPlatformError(value)).toBe(false);
  });
});

describe("PlatformError", () => {
  it("freezes details and keeps the cause", () => {
    const cause = new Error("root");
    const err = new PlatformError(ErrorCode.INVALID_OPTIONS, "bad", { details: { option: "projectId", nested: { a: 1 } }, cause });
    expect(err.cause).toBe(cause);
    expect(Object.isFrozen(err.details)).toBe(true);
    expect(Object.isFrozen(err.details.nested)).toBe(true);
    expect(err.name).toBe("PlatformError");
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "PlatformError",
      code: "PLATFORM_INVALID_OPTIONS",
      message: "bad",
      details: { option: "projectId", nested: { a: 1 } },
    });
  });
});

describe("ConfigValidationError", () => {
  it("lists every issue with its path under a header naming file and branch", () => {
    const err = new ConfigValidationError(
      [
        { path: "functions.api.env.KEY", message: "value is undefined" },
        { path: "branch.ttl", message: "must be at most 30 days" },
      ],
      { file: "/repo/svc.ts", branchName: "feature-x" },
    );
    expect(err.code).toBe("PLATFORM_CONFIG_INVALID");
    expect(err.message.split("\n")).toEqual([
      'Invalid policy in /repo/svc.ts (branch "feature-x"):',
      "  - functions.api.env.KEY: value is undefined",
      "  - branch.ttl: must be at most 30 days",
    ]);
    expect(err.issues).toHaveLength(2);
  });
});

describe("API errors", () => {
  it.each([
    [401, "PLATFORM_UNAUTHORIZED"],
    [403, "PLATFORM_FORBIDDEN"],
    [404, "PLATFORM_NOT_FOUND"],
    [409, "PLATFORM_CONFLICT"],
    [423, "PLATFORM_LOCKED"],
    [429, "PLATFORM_RATE_LIMITED"],
    [502, "PLATFORM_SERVER_ERROR"],
    [400, "PLATFORM_API_ERROR"],
    [422, "PLATFORM_API_ERROR"],
  ])("maps HTTP %i to %s", (status, code) => {
    expect(errorCodeForStatus(status)).toBe(code);
  });

  it("names method, path, status, platform message and request id", () => {
    const err = new ApiError({ method: "GET", path: "/projects/p", status: 404, apiMessage: "no such project", requestId: "r-1", attempts: 1 });
    expect(err.message).toContain("GET /projects/p failed with HTTP 404: no such project (request id r-1)");
    expect(err.status).toBe(404);
    expect(err.requestId).toBe("r-1");
  });

  it("says a mutation without a response may have been applied", () => {
    const err = new OutcomeUnknownError({ method: "POST", path: "/projects/p/branches", requestId: "r-2" });
    expect(err.code).toBe("PLATFORM_OUTCOME_UNKNOWN");
    expect(err.message).toMatch(/POST \/projects\/p\/branches got no response \(request id r-2\)/);
  });

  it("names what ended a mutation without a response, as a read's network error does", () => {
    const emfile = Object.assign(new Error("connect EMFILE 127.0.0.1:4000 - Local (undefined:undefined)"), { code: "EMFILE" });
    const err = new OutcomeUnknownError({ method: "POST", path: "/projects/p/branches", requestId: "r-3" }, new TypeError("fetch failed", { cause: emfile }));
    expect(err.message).toBe(
      "POST /projects/p/branches got no response: connect EMFILE 127.0.0.1:4000 - Local (undefined:undefined) (request id r-3); it may or may not have been applied. Run plan to see the branch's state, then apply again.",
    );
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(new OutcomeUnknownError({ method: "PATCH", path: "/x", requestId: "r-4", status: 502 }, emfile).message).toMatch(/^PATCH \/x got HTTP 502 \(request id r-4\)/);
  });

  it("carries abort reasons in order", () => {
    const err = new PushAbortedError("main", ["protected-branch", "override-updates"]);
    expect(err.reasons).toEqual(["protected-branch", "override-updates"]);
    expect(err.message).toContain('"main"');
  });
});
