import { describe, expect, it } from "vitest";
import { ConfigValidationError, formatDuration, parseDuration, type Duration } from "../../../src/v1.js";

describe("parseDuration", () => {
  it.each<[Duration, number]>([
    ["7d", 604_800],
    ["1w", 604_800],
    [604_800, 604_800],
    ["5m", 300],
    [300, 300],
    ["1h", 3600],
    ["90s", 90],
    [" 2H ", 7200],
    ["3D", 259_200],
    ["07d", 604_800],
  ])("reads %j as %i seconds", (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });

  it("treats \"7d\", \"1w\" and 604800 as the same duration", () => {
    expect(new Set([parseDuration("7d"), parseDuration("1w"), parseDuration(604_800)]).size).toBe(1);
  });

  it.each<[unknown, RegExp]>([
    ["7", /"7" has no unit: write "7d", "7h", …, or the number 7 for seconds/],
    [0, /positive whole number of seconds \(got 0\)/],
    [-5, /positive whole number of seconds \(got -5\)/],
    [1.5, /positive whole number of seconds \(got 1.5\)/],
    ["0h", /"0h" must be a positive duration/],
    ["-1h", /"-1h" is not a duration/],
    ["1.5h", /"1.5h" is not a duration/],
    ["1y", /"1y" is not a duration/],
    ["one day", /"one day" is not a duration/],
    ["", /"" is not a duration/],
    [null, /got null/],
    [true, /got boolean/],
  ])("rejects %j with a message that says what to write", (input, message) => {
    let thrown: unknown;
    try {
      parseDuration(input as Duration);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigValidationError);
    const issue = (thrown as ConfigValidationError).issues[0];
    expect(issue?.path).toBe("duration");
    expect(issue?.message).toMatch(message);
  });
});

describe("formatDuration", () => {
  it.each<[number, string]>([
    [604_800, "1w"],
    [1_209_600, "2w"],
    [86_400, "1d"],
    [691_200, "8d"],
    [3600, "1h"],
    [5400, "90m"],
    [300, "5m"],
    [90, "90s"],
    [1, "1s"],
  ])("formats %i seconds as %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([0, -60, 1.5, Number.NaN])("rejects %d", (seconds) => {
    expect(() => formatDuration(seconds)).toThrow(ConfigValidationError);
  });

  it("round-trips through parseDuration", () => {
    for (const seconds of [1, 59, 60, 3599, 3600, 86_399, 86_400, 604_800, 2_592_000]) {
      expect(parseDuration(formatDuration(seconds))).toBe(seconds);
    }
  });
});
