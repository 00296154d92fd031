/**
 * Waiting for control-plane operations (api.md §2.3 rule 6, engine.md §12): poll each
 * non-terminal operation from `polling.initialMs`, ×1.5 up to `polling.maxMs`, until it ends;
 * give up after `timeouts.operationMs`.
 */
import { CancelledError, ErrorCode, PlatformError, TimeoutError } from "../errors/index.js";
import type { PlatformApiPolling } from "./client-options.js";
import type { ApiOperation } from "./wire-types.js";

/** Statuses that end an operation successfully. */
const SUCCESS = new Set(["finished", "skipped"]);
/** Statuses that end an operation in failure. */
const FAILURE = new Set(["failed", "error", "cancelled"]);

/** Whether an operation status is terminal (success or failure). */
export function isTerminalStatus(status: string): boolean {
  return SUCCESS.has(status) || FAILURE.has(status);
}

/** What the wait needs from its surroundings. */
export interface OperationWaitContext {
  projectId: string;
  getOperation: (operationId: string) => Promise<ApiOperation>;
  polling: PlatformApiPolling;
  limitMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  signal?: AbortSignal;
}

/**
 * Waits for every operation in order and returns their final records. A failed one throws a
 * `PlatformError` (`PLATFORM_API_ERROR`) naming the operation id, action and platform error.
 */
export async function waitForOperationList(context: OperationWaitContext, operations: readonly ApiOperation[]): Promise<ApiOperation[]> {
  const started = context.now();
  const finals: ApiOperation[] = [];
  for (const operation of operations) {
    let current = operation;
    let interval = context.polling.initialMs;
    while (!isTerminalStatus(current.status)) {
      if (context.now() - started >= context.limitMs) {
        throw new TimeoutError(
          { waitingFor: `operation ${current.action}`, id: current.id, limitMs: context.limitMs },
          { details: { projectId: context.projectId, status: current.status } },
        );
      }
      try {
        await context.sleep(interval, context.signal);
      } catch {
        throw new CancelledError(`Waiting for operation ${current.id} (${current.action})`);
      }
      interval = Math.min(Math.round(interval * 1.5), context.polling.maxMs);
      current = await context.getOperation(current.id);
    }
    if (FAILURE.has(current.status)) throw operationFailed(context.projectId, current);
    finals.push(current);
  }
  return finals;
}

function operationFailed(projectId: string, operation: ApiOperation): PlatformError {
  const why = operation.error ? `: ${operation.error}` : "";
  return new PlatformError(
    ErrorCode.API_ERROR,
    `Operation ${operation.id} (${operation.action}) on project ${projectId} ended ${operation.status}${why}. ` +
      "Check the project's operations in the console, then apply again.",
    {
      details: {
        reason: "operation failed",
        projectId,
        operationId: operation.id,
        action: operation.action,
        status: operation.status,
        error: operation.error,
      },
    },
  );
}
