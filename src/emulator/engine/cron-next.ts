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

/** Epoch ms of the first minute strictly after `fromMs` matching `cron`, or null within ~4 years. */
export function nextCronRun(cron: string, fromMs: number): number | null {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const [m = "*", h = "*", dom = "*", mon = "*", dow = "*"] = parts;
  const minutes = parseField(m, 0, 59);
  const hours = parseField(h, 0, 23);
  const days = parseField(dom, 1, 31);
  const months = parseField(mon, 1, 12);
  const weekdays = parseField(dow, 0, 7);
  if (weekdays.values.has(7)) weekdays.values.add(0);
  const dayMatches = (d: Date): boolean => {
    const byDom = days.values.has(d.getUTCDate());
    const byDow = weekdays.values.has(d.getUTCDay());
    if (days.restricted && weekdays.restricted) return byDom || byDow;
    return (!days.restricted || byDom) && (!weekdays.restricted || byDow);
  };
  const start = new Date(Math.floor(fromMs / 60000) * 60000 + 60000);
  const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  for (let i = 0; i < 366 * 4; i++, day.setUTCDate(day.getUTCDate() + 1)) {
    if (!months.values.has(day.getUTCMonth() + 1) || !dayMatches(day)) continue;
    for (let hour = 0; hour < 24; hour++) {
      if (!hours.values.has(hour)) continue;
      for (let minute = 0; minute < 60; minute++) {
        if (!minutes.values.has(minute)) continue;
        const t = day.getTime() + hour * 3_600_000 + minute * 60_000;
        if (t >= start.getTime()) return t;
      }
    }
  }
  return null;
}
