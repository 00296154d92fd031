/**
 * The next run of a five-field numeric cron expression in UTC (for a trigger's `next_run_at`).
 * The expression is already validated by the shared cron rule; day-of-month and day-of-week
 * follow cron's rule: when both are restricted, either may match.
 */

interface Field {
  values: Set<number>;
  restricted: boolean;
}

function parseField(text: string, min: number, max: number): Field {
  const values = new Set<number>();
  for (const item of text.split(",")) {
    const [range = "*", stepText] = item.split("/");
    const step = stepText === undefined ? 1 : Math.max(1, Number(stepText));
    let lo = min;
    let hi = max;
    if (range !== "*") {
      const [a = "", b] = range.split("-");
      lo = Number(a);
      hi = b === undefined ? (stepText === undefined ? lo : max) : Number(b);
    }
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return { values, restricted: text !== "*" };
}

/** An expression's five fields, read once. */
interface Schedule {
  minutes: Field;
  hours: Field;
  days: Field;
  months: Field;
  weekdays: Field;
}

/** Expressions read so far (a trigger's view reads its expression on every answer): at most {@link SCHEDULES_KEPT}, then started again. */
const schedules = new Map<string, Schedule | null>();
const SCHEDULES_KEPT = 512;

/** The fields of `cron`, or null when it does not have five; the same object for the same expression (never changed by a caller). */
function scheduleOf(cron: string): Schedule | null {
  const known = schedules.get(cron);
  if (known !== undefined) return known;
  const parts = cron.trim().split(/\s+/);
  let schedule: Schedule | null = null;
  if (parts.length === 5) {
    const [m = "*", h = "*", dom = "*", mon = "*", dow = "*"] = parts;
    schedule = { minutes: parseField(m, 0, 59), hours: parseField(h, 0, 23), days: parseField(dom, 1, 31), months: parseField(mon, 1, 12), weekdays: parseField(dow, 0, 7) };
    if (schedule.weekdays.values.has(7)) schedule.weekdays.values.add(0);
  }
  if (schedules.size >= SCHEDULES_KEPT) schedules.clear();
  schedules.set(cron, schedule);
  return schedule;
}

/** Epoch ms of the first minute strictly after `fromMs` matching `cron`, or null within ~4 years. */
export function nextCronRun(cron: string, fromMs: number): number | null {
  const schedule = scheduleOf(cron);
  if (schedule === null) return null;
  const { minutes, hours, days, months, weekdays } = schedule;
  const dayMatches = (d: Date): boolean => {
    const byDom = days.values.has(d.getUTCDate());
    const byDow = weekdays.values.has(d.getUTCDay());
    if (days.restricted && weekdays.restricted) return byDom || byDow;
    return (!days.restricted || byDom) && (!weekdays.restricted || byDow);
  };
  const start = Math.floor(fromMs / 60000) * 60000 + 60000;
  const startDate = new Date(start);
  const day = new Date(Date.UTC(startDate.getUTCFullYear(), startDate.getUTCMonth(), startDate.getUTCDate()));
  for (let i = 0; i < 366 * 4; i++, day.setUTCDate(day.getUTCDate() + 1)) {
    if (!months.values.has(day.getUTCMonth() + 1) || !dayMatches(day)) continue;
    const dayStart = day.getTime();
    for (let hour = 0; hour < 24; hour++) {
      // An hour whose last minute is before the start holds no answer: not scanned minute by minute.
      if (!hours.values.has(hour) || dayStart + hour * 3_600_000 + 59 * 60_000 < start) continue;
      for (let minute = 0; minute < 60; minute++) {
        if (!minutes.values.has(minute)) continue;
        const t = dayStart + hour * 3_600_000 + minute * 60_000;
        if (t >= start) return t;
      }
    }
  }
  return null;
}
