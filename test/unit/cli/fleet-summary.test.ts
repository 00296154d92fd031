import { describe, expect, it } from "vitest";
import { worstExitCode } from "../../../src/cli/views/fleet-summary.js";

describe("worstExitCode", () => {
  it.each([
    { codes: [], worst: 0 },
    { codes: [0, 0], worst: 0 },
    { codes: [0, 2, 0], worst: 2 },
    { codes: [2, 3, 0], worst: 3 },
    { codes: [3, 1, 2], worst: 1 },
    { codes: [7, 4, 6], worst: 7 },
    { codes: [1, 7], worst: 1 },
    { codes: [1, 130], worst: 130 },
  ])("$codes → $worst", ({ codes, worst }) => {
    expect(worstExitCode(codes)).toBe(worst);
  });
});
