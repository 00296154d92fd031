/**
 * The soak's fault plan (issue 10) and the emulator settings it runs with: low latency and short
 * operations and builds, so hundreds of applies fit in minutes on two cores, and a client whose
 * waits are shortened (the delays it decides on still show in its `retry` events, so honouring
 * `Retry-After` stays observable).
 */
import type { EmulatorOptions, FaultRule } from "../../src/emulator/index.js";

/** 10 % 503, 5 % 423, 5 % 429 with `Retry-After: 1`, 2 % resets on reads, and occasional faults after a mutation was applied. */
export const SOAK_FAULTS: FaultRule[] = [
  { kind: "status", status: 503, rate: 0.1 },
  { kind: "status", status: 423, rate: 0.05 },
  { kind: "status", status: 429, rate: 0.05, retryAfterS: 1 },
  { kind: "reset", rate: 0.02, methods: ["GET"] },
  { kind: "status", status: 502, rate: 0.03, phase: "after", methods: ["POST", "PATCH", "DELETE"] },
  { kind: "reset", rate: 0.02, phase: "after", methods: ["POST", "PATCH", "DELETE"] },
];

/** The emulator of the soak: no latency, short operations and builds, a fixed fault seed. */
export function soakEmulatorOptions(faultSeed: number): EmulatorOptions {
  return {
    faultSeed,
    timings: { opSchedulingMs: 0, opRunMs: 5, deployPendingMs: 2, deployBuildMs: 5, domainActivationMs: 5 },
  };
}

/** A label for one injected fault, for the counts the soak reports. */
export function faultLabel(fault: { kind: string; status?: number; phase: string }): string {
  return `${fault.kind}${fault.status !== undefined ? ` ${fault.status}` : ""}${fault.phase === "after" ? " after mutation" : ""}`;
}

/** The client's sleep between retries and polls: waits what was asked, but at most `capMs`. */
export function shortSleep(capMs = 10): (ms: number, signal?: AbortSignal) => Promise<void> {
  return (ms, signal) => {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
        return;
      }
      setTimeout(resolve, Math.min(ms, capMs));
    });
  };
}
