/**
 * Trigger deliveries: the platform's invocation (`POST` to the function's URL plus the trigger's
 * `functionPath`, the JSON envelope and its id header, built by the shared rule) sent through the
 * function's front door like any caller's request, so faults, timeouts and the invocation log
 * apply. A non-2xx answer, a timeout or a dropped connection fails the attempt; it is retried
 * once with the same `invocation_id`. Deliveries of one trigger go one at a time, in the order
 * they were queued; at most `maxPending` wait at once (more are dropped and reported).
 */
import { randomUUID } from "node:crypto";
import { triggerInvocationRequest, type TriggerInvocationData } from "../../rules/trigger-invocation.js";
import { sleep } from "../faults.js";
import type { FrontDoor } from "./front-door.js";
import type { InvocationTrigger } from "./invocation-log.js";
import { functionKeyOf } from "./runner.js";

/** One invocation to deliver. */
export interface DeliveryTarget {
  projectId: string;
  branchId: string;
  trigger: { id: string; name: string; type: "schedule" | "storage_object_created"; functionSlug: string; functionPath: string };
  data: TriggerInvocationData;
}

/** How a delivery went: its invocation id and the status of each attempt (`timeout` or `reset` when there was none). */
export interface DeliveryOutcome {
  invocation_id: string;
  delivered: boolean;
  attempts: (number | "failed")[];
}

/** What deliveries need from the emulator. */
export interface DeliveriesOptions {
  frontDoor: FrontDoor;
  /** The front door answers 504 after this long; the sender waits a little longer. */
  timeoutMs: number;
  /** Most deliveries waiting at once. */
  maxPending: number;
  /** Pause before the retry. */
  retryDelayMs: number;
  notice: (line: string) => void;
  /** Registers work that `settle()` waits for. */
  track: (work: Promise<void>) => void;
}

/** Extra wait of the sender beyond the front door's timeout (its 504 comes first). */
const SENDER_GRACE_MS = 5000;

/** The queue of trigger deliveries. */
export class Deliveries {
  private readonly chains = new Map<string, Promise<unknown>>();
  private pending = 0;

  constructor(private readonly options: DeliveriesOptions) {}

  /** Queues a delivery behind the trigger's earlier ones; false (and a notice) when too many wait already. */
  enqueue(target: DeliveryTarget): boolean {
    if (this.pending >= this.options.maxPending) {
      this.options.notice(`trigger ${target.trigger.name} on branch ${target.branchId}: delivery dropped, ${this.pending} deliveries are already waiting (at most ${this.options.maxPending})`);
      return false;
    }
    this.pending++;
    const key = `${target.projectId}/${target.branchId}/${target.trigger.id}`;
    const run = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.attempts(target))
      .finally(() => {
        this.pending--;
        if (this.chains.get(key) === run) this.chains.delete(key);
      });
    this.chains.set(key, run);
    this.options.track(run.then(() => undefined));
    return true;
  }

  /** Delivers now (a manual fire), outside the queue; resolves with the outcome. */
  deliver(target: DeliveryTarget): Promise<DeliveryOutcome> {
    const run = this.attempts(target);
    this.options.track(run.then(() => undefined));
    return run;
  }

  private async attempts(target: DeliveryTarget): Promise<DeliveryOutcome> {
    const invocationId = randomUUID();
    const attempts: DeliveryOutcome["attempts"] = [];
    for (let attempt = 1; attempt <= 2; attempt++) {
      const status = await this.attempt(target, invocationId, attempt);
      attempts.push(status);
      if (typeof status === "number" && status >= 200 && status < 300) return { invocation_id: invocationId, delivered: true, attempts };
      if (attempt === 1) await sleep(this.options.retryDelayMs);
    }
    return { invocation_id: invocationId, delivered: false, attempts };
  }

  private async attempt(target: DeliveryTarget, invocationId: string, attempt: number): Promise<number | "failed"> {
    const { frontDoor } = this.options;
    const t = target.trigger;
    const url = await frontDoor.ensureUrl(functionKeyOf({ projectId: target.projectId, branchId: target.branchId, slug: t.functionSlug }));
    const request = triggerInvocationRequest({ functionUrl: url, functionPath: t.functionPath, invocationId, trigger: { type: t.type, id: t.id, name: t.name }, data: target.data });
    const context: InvocationTrigger = { id: t.id, name: t.name, type: t.type, invocation_id: invocationId, attempt, data: { ...target.data } };
    const header = frontDoor.deliveryHeader(context);
    try {
      const res = await fetch(request.url, { method: "POST", headers: { ...request.headers, [header.name]: header.value }, body: request.body, signal: AbortSignal.timeout(this.options.timeoutMs + SENDER_GRACE_MS) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      // The front door recorded why (timeout, reset); the sender only needs to know it failed.
      return "failed";
    } finally {
      frontDoor.forgetDelivery(header.id);
    }
  }
}
