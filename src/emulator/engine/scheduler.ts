/**
 * Deadline-driven transitions: every time-based change (operation start and
 * end, deployment build, domain activation, branch expiry) is a stored deadline. Before each
 * request, due deadlines run in deadline order, so correctness never depends on timers firing.
 */

/** A scheduled transition. */
interface Deadline {
  at: number;
  seq: number;
  /** Counts as work in progress for `settle()` (branch expiry does not). */
  busy: boolean;
  run: () => void;
}

/** A min-heap of deadlines ordered by time, then by insertion. */
export class Scheduler {
  private heap: Deadline[] = [];
  private seq = 0;
  private busyCount = 0;

  /** Schedules `run` at `at` (epoch ms). */
  at(at: number, run: () => void, busy = true): void {
    this.push({ at, seq: this.seq++, busy, run });
    if (busy) this.busyCount++;
  }

  /** Runs every deadline due at `now`, in order (a transition may schedule further ones). */
  materialize(now: number): void {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined || top.at > now) return;
      this.pop();
      if (top.busy) this.busyCount--;
      top.run();
    }
  }

  /** Whether operations, deployments or domain activations are still pending. */
  get busy(): boolean {
    return this.busyCount > 0;
  }

  /** The earliest pending deadline, if any. */
  nextAt(): number | undefined {
    return this.heap[0]?.at;
  }

  /** The earliest pending busy deadline, if any. */
  nextBusyAt(): number | undefined {
    let best: number | undefined;
    for (const d of this.heap) if (d.busy && (best === undefined || d.at < best)) best = d.at;
    return best;
  }

  /** Drops every deadline (reset). */
  clear(): void {
    this.heap = [];
    this.busyCount = 0;
  }

  private push(item: Deadline): void {
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent];
      if (p === undefined || !before(item, p)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = item;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      const lv = h[l];
      const rv = h[r];
      let mv: Deadline = last;
      if (lv !== undefined && before(lv, mv)) {
        m = l;
        mv = lv;
      }
      if (rv !== undefined && before(rv, mv)) {
        m = r;
        mv = rv;
      }
      if (m === i) break;
      h[i] = mv;
      i = m;
    }
    h[i] = last;
  }
}

function before(a: Deadline, b: Deadline): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
