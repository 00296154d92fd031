/** Each error class types its `details`, so callers read them without casts. */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type ApplyFailedError,
  type BundleError,
  ConfigLoadError,
  type ConfigValidationError,
  type PlatformError,
  StalePlanError,
  type BundleFailure,
  type ConfigIssue,
  type ErrorDetails,
  type PushResult,
  type StalePlanReason,
} from "../../../src/v1.js";

describe("typed error details", () => {
  it("types the details of each class, and keeps them loose on a bare PlatformError", () => {
    expectTypeOf<ApplyFailedError["details"]["result"]>().toEqualTypeOf<PushResult>();
    expectTypeOf<BundleError["details"]["failures"]>().toEqualTypeOf<readonly BundleFailure[]>();
    expectTypeOf<ConfigValidationError["details"]["issues"]>().toEqualTypeOf<ConfigIssue[]>();
    expectTypeOf<ConfigLoadError["details"]["searched"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<ConfigLoadError["details"]["location"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<StalePlanError["details"]["reason"]>().toEqualTypeOf<StalePlanReason>();
    expectTypeOf<PlatformError["details"]>().toEqualTypeOf<Readonly<ErrorDetails>>();
  });

  it("carries the typed values at run time, frozen", () => {
    const err = new StalePlanError({ reason: "state", expected: "a", actual: "b", currentChangeCount: 0 });
    expect(err.details.reason).toBe("state");
    expect(err.details.currentChangeCount).toBe(0);
    expect(Object.isFrozen(err.details)).toBe(true);
    const load = new ConfigLoadError("no policy", { searched: ["/a/svc.ts"], stoppedAt: "/a", stopReason: "git" });
    expect(load.details.searched).toEqual(["/a/svc.ts"]);
  });
});
