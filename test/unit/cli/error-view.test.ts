import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "../../../src/cli/main.js";
import { describeError, exitCodeFor, OUT_OF_FILES_HINT, renderErrorText, toJsonError } from "../../../src/cli/views/error-view.js";
import { ApiError, ApplyFailedError, CancelledError, CliError, ConfigValidationError, ErrorCode, PlatformError, PushConflictError, StalePlanError } from "../../../src/errors/index.js";
import { loadResult } from "./fixtures.js";

describe("error rendering", () => {
  it("prints code, message, request id and hint in the documented block", () => {
    const err = new ApiError({ method: "GET", path: "/projects/p", status: 401, requestId: "9f2c1a7e", attempts: 1 });
    expect(renderErrorText(describeError(err), false)).toBe(
      "error PLATFORM_UNAUTHORIZED: GET /projects/p failed with HTTP 401 (request id 9f2c1a7e). Check the API key (SVC_API_KEY or --api-key).\n" +
        "  request id: 9f2c1a7e\n  hint: The key was rejected: check SVC_API_KEY or --api-key.\n",
    );
  });

  it("lists every validation issue with its path", () => {
    const err = new ConfigValidationError([{ path: "functions.api.env.KEY", message: "value is undefined" }, { path: "branch.ttl", message: "too long" }], { file: "/repo/svc.ts" });
    const text = renderErrorText(describeError(err), false);
    expect(text).toContain("  - functions.api.env.KEY: value is undefined\n  - branch.ttl: too long\n");
  });

  it("names the branches that exist when one is missing", () => {
    const err = new PlatformError(ErrorCode.BRANCH_NOT_FOUND, 'Branch "feature-x" does not exist.', { details: { branchId: "feature-x", available: [{ name: "main", id: "br-1" }] } });
    expect(describeError(err).hint).toBe("Create it with `svc branch create feature-x`, or use one of: main (br-1)");
  });

  it("gives a resolve line per push conflict", () => {
    const result = loadResult("plan-mixed");
    const err = new PushConflictError(result.conflicts, "main", result);
    expect(renderErrorText(describeError(err), false)).toContain("    resolve: Rename the trigger in svc.ts");
  });

  it("adds causes only with --verbose and a stack only for internal errors", () => {
    const err = new PlatformError(ErrorCode.NETWORK_ERROR, "no response", { cause: new Error("ECONNREFUSED") });
    expect(renderErrorText(describeError(err), false)).not.toContain("caused by");
    expect(renderErrorText(describeError(err), true)).toContain("  caused by: ECONNREFUSED");
    const internal = renderErrorText(describeError(new TypeError("boom")), true);
    expect(internal).toContain("error CLI_INTERNAL: Unexpected error: boom");
    expect(internal).toContain("at ");
  });

  it("turns an error into the JSON error shape", () => {
    expect(toJsonError(describeError(new CliError("CLI_USAGE", "bad flag", { hint: "usage: svc" })))).toEqual({ code: "CLI_USAGE", message: "bad flag", requestId: null, hint: "usage: svc", causes: [] });
  });
});

describe("a process out of open files", () => {
  const result = loadResult("plan-mixed");
  const failedWith = (message: string): ApplyFailedError =>
    new ApplyFailedError({ ...result, dryRun: false, failed: [{ change: { id: "create:function.api", address: "function.api", kind: "function", action: "create", class: "additive", fields: ["*"], identifier: "api", field: "*", status: "planned" }, error: { code: ErrorCode.OUTCOME_UNKNOWN, message } }] });
  const systemError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

  it.each([
    ["a module that could not be opened (EMFILE)", systemError("EMFILE", "EMFILE: too many open files, open '/app/dist/bin/chunk-1.js'")],
    ["the system's file table full (ENFILE)", systemError("ENFILE", "ENFILE: file table overflow, open '/tmp/x'")],
    ["an EMFILE two causes down", new Error("bundling failed", { cause: new Error("read failed", { cause: systemError("EMFILE", "EMFILE: too many open files") }) })],
    ["a request that never connected (EMFILE) five times", new PlatformError(ErrorCode.NETWORK_ERROR, "GET /projects/p got no response after 5 attempt(s): connect EMFILE 127.0.0.1:1", { cause: new Error("connect EMFILE", { cause: systemError("EMFILE", "connect EMFILE 127.0.0.1:1") }) })],
    ["a bundling whose function could not open its files", new PlatformError(ErrorCode.BUNDLE_FAILED, "Bundling failed for 1 function(s).", { details: { failures: [{ slug: "api", message: "EMFILE: too many open files, open '/app/fn/index.ts'" }] } })],
    ["an apply whose change got no response after connect EMFILE", failedWith("POST /projects/p/branches/b/functions/api/deployments got no response: connect EMFILE 127.0.0.1:1 - Local (undefined:undefined) (request id r); it may or may not have been applied.")],
  ])("names the open-file limit for %s, not a bug or the network", (_name, err) => {
    const view = describeError(err);
    expect(view.hint).toBe(OUT_OF_FILES_HINT);
    expect(view.hint).toContain("ulimit -n");
    expect(renderErrorText(view, false)).not.toContain("This is a bug");
    expect(renderErrorText(view, false)).not.toContain("network");
  });

  it.each([
    ["another internal error", new TypeError("boom"), "This is a bug: re-run with --verbose and report it."],
    ["an apply that failed for another reason", failedWith("POST /x got no response: connect ECONNREFUSED 127.0.0.1:1"), "Run svc config plan to see what remains."],
    ["a network error that is not about files", new PlatformError(ErrorCode.NETWORK_ERROR, "GET /x got no response: connect ECONNREFUSED 127.0.0.1:1"), "Check --api-host and your network or proxy settings, or retry later."],
  ])("keeps its own hint for %s", (_name, err, hint) => {
    expect(describeError(err).hint).toBe(hint);
  });
});

describe("exit codes", () => {
  const result = loadResult("plan-mixed");
  const appliedOne = { ...result, dryRun: false, applied: [{ id: "a", address: "bucket.a", kind: "bucket" as const, action: "create" as const, class: "additive" as const, fields: ["*"], identifier: "a", field: "*", status: "applied" as const }] };
  it.each([
    ["a usage error", new CliError("CLI_USAGE", "x"), 1],
    ["blocking conflicts", new PushConflictError(result.conflicts, "main"), 3],
    ["a confirmation that cannot be asked", new CliError("CLI_CONFIRMATION_REQUIRED", "x"), 4],
    ["a No answer", new CliError("CLI_ABORTED", "x"), 5],
    ["a stale saved plan", new StalePlanError({ reason: "state", expected: "a", actual: "b" }), 6],
    ["an unreadable saved plan", new CliError("CLI_PLAN_UNREADABLE", "x"), 6],
    ["a failure after an applied change", new ApplyFailedError(appliedOne), 7],
    ["a failure before anything was applied", new ApplyFailedError({ ...result, dryRun: false }), 1],
    ["an interrupt", new CancelledError("apply"), 130],
    ["a bug", new Error("x"), 1],
  ])("maps %s to its exit code", (_name, err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });
});

describe("Node.js version check", () => {
  it.each([
    ["20.18.3", "svc-config needs Node.js 20.19 or later (found 20.18.3); upgrade Node.js\n"],
    ["18.20.0", "svc-config needs Node.js 20.19 or later (found 18.20.0); upgrade Node.js\n"],
    ["20.19.0", undefined],
    ["22.1.0", undefined],
  ])("answers Node.js %s with %j", (version, expected) => {
    expect(nodeVersionProblem(version)).toBe(expected);
  });
});
