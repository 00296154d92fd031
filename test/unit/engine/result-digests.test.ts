import { describe, expect, it } from "vitest";
import type { PushResult } from "../../../src/model/plan.js";
import { recordDigests, recordedDigests } from "../../../src/engine/result-digests.js";

const digests = { changesDigest: "a".repeat(64), changeDigests: { "create:bucket.logs": "b".repeat(64) } };
const resultOf = (): PushResult => ({ branchName: "main" }) as unknown as PushResult;

describe("the digests kept beside a result", () => {
  it("are the ones recorded, for the result they were recorded for", () => {
    const result = resultOf();
    recordDigests(result, digests);
    expect(recordedDigests(result)).toEqual(digests);
    expect(recordedDigests(resultOf())).toBeUndefined();
  });

  it("recorded as a function are computed when first asked for, once, and kept", () => {
    const result = resultOf();
    let calls = 0;
    recordDigests(result, () => {
      calls += 1;
      return digests;
    });
    expect(calls).toBe(0);
    expect(recordedDigests(result)).toEqual(digests);
    expect(recordedDigests(result)).toEqual(digests);
    expect(calls).toBe(1);
  });

  it("recorded as a function that throws, throw when asked for, and again when asked again", () => {
    const result = resultOf();
    recordDigests(result, () => {
      throw new Error("not hashable");
    });
    expect(() => recordedDigests(result)).toThrow("not hashable");
    expect(() => recordedDigests(result)).toThrow("not hashable");
  });
});
