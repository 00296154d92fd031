/**
 * One watcher of function builds per branch: every tick, one functions-list
 * request answers for every deployment being waited on, so the requests per tick do not grow
 * with the number of pending builds. The pause between ticks is `pollInitialMs` after a
 * completion, otherwise a fifth of the oldest pending wait's age, within `pollInitialMs` and
 * `pollMaxMs` (`api/poll-interval.ts`).
 */
import { isTransientPollError } from "../api/operations.js";
import { nextPollMs } from "../api/poll-interval.js";
import type { ApiFunctionBuild } from "../api/platform-api.js";
import { TimeoutError } from "../errors/api-errors.js";
import { ErrorCode } from "../errors/codes.js";
import { CancelledError } from "../errors/engine-errors.js";
import { PlatformError } from "../errors/platform-error.js";

/** What the watcher needs: a list read (taking a request slot), the clock, and a sleep that ends early on cancellation. */
export interface BuildWatcherContext {
  listFunctions: () => Promise<readonly ApiFunctionBuild[]>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  signal?: AbortSignal;
  timing: { deploymentMs: number; pollInitialMs: number; pollMaxMs: number };
}

/** A status change of a watched deployment, for the `wait` event. */
export type BuildStatusListener = (status: string) => void;

/** Waits for function builds, all through one list request per tick. */
export interface BuildWatcher {
  /**
   * Resolves with the function once deployment `id` of `slug` completed; rejects when it failed
   * (the platform's error), was superseded by a newer deployment, timed out, or was cancelled.
   */
  wait(slug: string, id: number, onStatus?: BuildStatusListener): Promise<ApiFunctionBuild>;
}

interface Pending {
  slug: string;
  id: number;
  since: number;
  deadline: number;
  lastStatus: string;
  onStatus: BuildStatusListener | undefined;
  resolve: (fn: ApiFunctionBuild) => void;
  reject: (err: unknown) => void;
}

/** Settles `p` from the function's current deployment; returns whether it is settled. */
function settle(p: Pending, fn: ApiFunctionBuild | undefined): boolean {
  const current = fn?.current_deployment;
  if (fn === undefined || current === undefined) return false;
  if (current.id > p.id) {
    p.reject(new PlatformError(ErrorCode.CONFLICT, `deployment ${p.id} of function ${p.slug} was superseded by deployment ${current.id}; run plan again`, {
      details: { slug: p.slug, deploymentId: p.id, supersededBy: current.id },
    }));
    return true;
  }
  if (current.id !== p.id) return false;
  if (current.status !== p.lastStatus) p.onStatus?.(current.status);
  p.lastStatus = current.status;
  if (current.status === "completed") {
    p.resolve(fn);
    return true;
  }
  if (current.status === "failed") {
    p.reject(new PlatformError(ErrorCode.API_ERROR, `the build of function ${p.slug} (deployment ${p.id}) failed: ${current.error ?? "no error text"}`, {
      details: { slug: p.slug, deploymentId: p.id, platformError: current.error ?? null },
    }));
    return true;
  }
  return false;
}

/** Creates the watcher of one branch; its loop runs only while something is pending. */
export function createBuildWatcher(ctx: BuildWatcherContext): BuildWatcher {
  const pending = new Set<Pending>();
  let running = false;

  async function loop(): Promise<void> {
    let interval = ctx.timing.pollInitialMs;
    while (pending.size > 0) {
      await ctx.sleep(interval);
      if (ctx.signal?.aborted === true) {
        for (const p of pending) p.reject(new CancelledError(`waiting for deployment ${p.id} of function ${p.slug}`));
        pending.clear();
        break;
      }
      let bySlug: Map<string, ApiFunctionBuild> | undefined;
      try {
        bySlug = new Map((await ctx.listFunctions()).map((f) => [f.slug, f]));
      } catch (err) {
        if (!isTransientPollError(err)) {
          for (const p of pending) p.reject(err);
          pending.clear();
          break;
        }
      }
      let progressed = false;
      const now = ctx.now();
      for (const p of [...pending]) {
        if (bySlug !== undefined && settle(p, bySlug.get(p.slug))) {
          pending.delete(p);
          progressed = true;
        } else if (now >= p.deadline) {
          pending.delete(p);
          p.reject(new TimeoutError({ waitingFor: `deployment of function ${p.slug}`, id: String(p.id), limitMs: ctx.timing.deploymentMs }));
        }
      }
      const oldest = [...pending].reduce((min, p) => Math.min(min, p.since), now);
      interval = nextPollMs({ initialMs: ctx.timing.pollInitialMs, maxMs: ctx.timing.pollMaxMs }, progressed, now - oldest);
    }
    running = false;
  }

  return {
    wait(slug, id, onStatus) {
      return new Promise<ApiFunctionBuild>((resolve, reject) => {
        if (ctx.signal?.aborted === true) {
          reject(new CancelledError(`waiting for deployment ${id} of function ${slug}`));
          return;
        }
        const since = ctx.now();
        pending.add({ slug, id, since, deadline: since + ctx.timing.deploymentMs, lastStatus: "", onStatus, resolve, reject });
        if (!running) {
          running = true;
          void loop();
        }
      });
    },
  };
}
