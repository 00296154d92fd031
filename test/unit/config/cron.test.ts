import { describe, expect, it } from "vitest";
import { checkCron, normalizeCron } from "../../../src/rules/cron.js";

describe("cron grammar", () => {
  it.each([
    ["0 * * * *", "0 * * * *"],
    ["  */15   0-23/2 1,15 1-12 0-7 ", "*/15 0-23/2 1,15 1-12 0-7"],
    ["59 23 31 12 7", "59 23 31 12 7"],
    ["0\t0 * * 1-5", "0 0 * * 1-5"],
    ["0 0 1-31/31 * *", "0 0 1-31/31 * *"],
  ])("accepts %j and normalises it to %j", (expression, normalized) => {
    expect(checkCron(expression)).toEqual({ valid: true, normalized });
  });

  it.each([
    ["0 24 * * *", 'field 2 (hour): 24 is outside 0–23'],
    ["60 * * * *", "field 1 (minute): 60 is outside 0–59"],
    ["0 0 0 * *", "field 3 (day-of-month): 0 is outside 1–31"],
    ["0 0 * 13 *", "field 4 (month): 13 is outside 1–12"],
    ["0 0 * * 8", "field 5 (day-of-week): 8 is outside 0–7"],
    ["0 0 * JAN *", "field 4 (month): \"JAN\" is not supported: names (JAN, MON) and L, W are not accepted; use numbers"],
    ["0 0 * * MON", "field 5 (day-of-week): \"MON\" is not supported: names (JAN, MON) and L, W are not accepted; use numbers"],
    ["0 0 ? * *", "field 3 (day-of-month): \"?\" is not supported: ? and # are not accepted; use *, numbers, ranges and steps"],
    ["0 0 L * *", "field 3 (day-of-month): \"L\" is not supported: names (JAN, MON) and L, W are not accepted; use numbers"],
    ["0 0 * * 1#2", "field 5 (day-of-week): \"1#2\" is not supported: ? and # are not accepted; use *, numbers, ranges and steps"],
    ["@daily", 'macros such as @daily are not supported; write the 5 fields, e.g. "0 0 * * *" for daily'],
    ["0 0 * * * *", "must have exactly 5 fields (minute hour day-of-month month day-of-week), got 6"],
    ["0 0 * * * * 2030", "must have exactly 5 fields (minute hour day-of-month month day-of-week), got 7"],
    ["0 0 * *", "must have exactly 5 fields (minute hour day-of-month month day-of-week), got 4"],
    ["*/0 * * * *", "field 1 (minute): step 0 must be between 1 and 59"],
    ["*/60 * * * *", "field 1 (minute): step 60 must be between 1 and 59"],
    ["5-3 * * * *", "field 1 (minute): range 5-3 must go from low to high"],
    ["5/10 * * * *", 'field 1 (minute): step needs "*" or a range before it, e.g. "*/10"'],
    ["1,,2 * * * *", "field 1 (minute): empty list item (check the commas)"],
    ["", 'is empty; write 5 fields, e.g. "0 * * * *"'],
  ])("rejects %j: %s", (expression, message) => {
    expect(checkCron(expression)).toEqual({ valid: false, message });
  });

  it("compares expressions after collapsing whitespace", () => {
    expect(normalizeCron(" 0  *\t* * * ")).toBe(normalizeCron("0 * * * *"));
  });
});
