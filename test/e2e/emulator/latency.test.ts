import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator } from "./helpers.js";

/**
 * `latencyMs` (`--latency`) delays every API request. Only a lower bound is
 * asserted: a busy machine can make a request slower, never faster than the added delay.
 */
describe("added latency", () => {
  const cases: [string, number | [number, number], number][] = [
    ["a fixed delay", 150, 150],
    ["a range", [120, 160], 120],
  ];
  const running: RunningEmulator[] = [];
  beforeAll(async () => {
    for (const [, latencyMs] of cases) running.push(await startTestEmulator({ latencyMs }));
  });
  afterAll(async () => {
    for (const emu of running) await emu.close();
  });

  it.each(cases.map((c, i) => [...c, i] as const))("holds every API request back by at least its minimum with %s", async (_name, _latency, minimum, index) => {
    const emu = running[index];
    if (emu === undefined) throw new Error(`emulator ${index} did not start`);
    const api = client(emu);
    for (const path of ["/regions", `/projects/${emu.projectId}`, `/projects/${emu.projectId}/branches`]) {
      const started = performance.now();
      const reply = await api.call("GET", path);
      const elapsed = performance.now() - started;
      expect(reply.status).toBe(200);
      // setTimeout may fire up to a millisecond early.
      expect(elapsed).toBeGreaterThanOrEqual(minimum - 2);
    }
  });
});
