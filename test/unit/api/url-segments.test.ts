import { describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/index.js";
import { rejection } from "./helpers.js";

/** A client whose fetch counts requests and answers 200 `{}`. */
function countingClient(): { api: ReturnType<typeof createPlatformApi>; sent: () => number } {
  let requests = 0;
  const fetch: typeof globalThis.fetch = async () => {
    requests += 1;
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  return { api: createPlatformApi({ apiKey: "k", apiHost: "http://api.test", fetch }), sent: () => requests };
}

const ref = { projectId: "proj-1", branchId: "br-1" };

describe("names the URL would not carry unchanged are refused before sending", () => {
  it.each([".", "..", "%2e%2E", "a\uD800b"])("deleteBucket and listBucketObjects refuse the bucket %j with PLATFORM_INVALID_OPTIONS", async (bucket) => {
    const { api, sent } = countingClient();

    const errors = [await rejection(api.deleteBucket({ ...ref, bucket })), await rejection(api.listBucketObjects({ ...ref, bucket }))];

    for (const err of errors) {
      expect(err.code).toBe("PLATFORM_INVALID_OPTIONS");
      expect(err.message).toMatch(/^bucket name ".*" cannot be sent: it (is a dot segment|contains an unpaired)/);
    }
    expect(sent()).toBe(0);
  });

  it.each([
    ["..", "is a dot segment"],
    ["a/b", 'contains "/"'],
    ["rtl\u202eexe", "contains a bidirectional-override character (\\u202e)"],
  ])("createBucket refuses the name %j naming the rule, with the name escaped", async (name, why) => {
    const { api, sent } = countingClient();

    const err = await rejection(api.createBucket({ ...ref, name }));

    expect(err.code).toBe("PLATFORM_INVALID_OPTIONS");
    expect(err.message).toContain(why);
    expect(err.message).not.toContain("\u202e");
    expect(sent()).toBe(0);
  });

  it("refuses an undefined branch id instead of requesting …/branches/undefined", async () => {
    const { api, sent } = countingClient();

    const err = await rejection(api.listBuckets({ projectId: "proj-1", branchId: undefined as unknown as string }));

    expect(err).toMatchObject({ code: "PLATFORM_INVALID_OPTIONS", details: { option: "branchId" } });
    expect(sent()).toBe(0);
  });
});
