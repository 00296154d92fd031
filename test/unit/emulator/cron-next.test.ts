import { describe, expect, it } from "vitest";
import { nextCronRun } from "../../../src/emulator/engine/cron-next.js";

/** A field's values by cron's rules, written out for the reference below. */
function expand(text: string, min: number, max: number): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(",")) {
    const [range = "*", step] = item.split("/");
    const by = step === undefined ? 1 : Number(step);
    const [from, to] = range === "*" ? [min, max] : range.includes("-") ? range.split("-").map(Number) : [Number(range), step === undefined ? Number(range) : max];
    for (let v = from ?? min; v <= (to ?? max); v += by) out.add(v);
  }
  return out;
}

/** The first minute after `fromMs` that matches, found by trying every minute (up to 40 days). */
function slowNextRun(cron: string, fromMs: number): number | null {
  const [m = "", h = "", dom = "", mon = "", dow = ""] = cron.split(" ");
  const minutes = expand(m, 0, 59);
  const hours = expand(h, 0, 23);
  const days = expand(dom, 1, 31);
  const months = expand(mon, 1, 12);
  const weekdays = expand(dow, 0, 7);
  if (weekdays.has(7)) weekdays.add(0);
  const first = Math.floor(fromMs / 60_000) * 60_000 + 60_000;
  for (let t = first; t < first + 40 * 86_400_000; t += 60_000) {
    const d = new Date(t);
    const byDom = days.has(d.getUTCDate());
    const byDow = weekdays.has(d.getUTCDay());
    const dayOk = dom !== "*" && dow !== "*" ? byDom || byDow : byDom && byDow;
    if (minutes.has(d.getUTCMinutes()) && hours.has(d.getUTCHours()) && months.has(d.getUTCMonth() + 1) && dayOk) return t;
  }
  return null;
}

describe("the next run of a cron expression", () => {
  const from = Date.UTC(2026, 10, 27, 17, 4, 31);
  it.each([
    ["0 * * * *", Date.UTC(2026, 10, 27, 18, 0)],
    ["4 * * * *", Date.UTC(2026, 10, 27, 18, 4)],
    ["5 17 * * *", Date.UTC(2026, 10, 27, 17, 5)],
    ["4 17 * * *", Date.UTC(2026, 10, 28, 17, 4)],
    ["*/15 * * * *", Date.UTC(2026, 10, 27, 17, 15)],
    ["0 0 1 * *", Date.UTC(2026, 11, 1, 0, 0)],
    ["30 9 * * 1-5", Date.UTC(2026, 10, 30, 9, 30)],
    ["0 12 13 * 5", Date.UTC(2026, 10, 27, 12, 0) + 86_400_000 * 7],
  ])("%s after 17:04:31 on Friday 2026-11-27", (cron, expected) => {
    expect(new Date(nextCronRun(cron, from) ?? 0).toISOString()).toBe(new Date(expected).toISOString());
  });

  it("is the first matching minute, as trying each minute finds it, for 2,000 seeded expressions and times, asked twice", () => {
    let seed = 20261127;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const field = (min: number, max: number): string => {
      const kind = next(5);
      if (kind === 0) return "*";
      if (kind === 1) return String(min + next(max - min + 1));
      if (kind === 2) return `*/${1 + next(Math.min(20, max))}`;
      const a = min + next(max - min + 1);
      const b = a + next(max - a + 1);
      return kind === 3 ? `${a}-${b}` : `${a},${b}`;
    };
    for (let i = 0; i < 2_000; i++) {
      const cron = [field(0, 59), field(0, 23), next(3) === 0 ? field(1, 28) : "*", "*", next(3) === 0 ? field(0, 7) : "*"].join(" ");
      const at = Date.UTC(2026, next(12), 1 + next(28), next(24), next(60), next(60));
      const expected = slowNextRun(cron, at);
      expect([cron, nextCronRun(cron, at), nextCronRun(cron, at)]).toEqual([cron, expected, expected]);
    }
  });
});
