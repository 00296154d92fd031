import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { isRoutineServerLine } from "../../../src/emulator/postgres/supervisor.js";
import { RequestLog } from "../../../src/emulator/request-log.js";
import { client, startTestEmulator } from "./helpers.js";

const running: RunningEmulator[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const emu of running.splice(0)) await emu.close();
});

/** Collects what the emulator writes on stderr while `body` runs. */
async function stderrDuring(body: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return true;
  });
  await body();
  vi.restoreAllMocks();
  return lines.join("");
}

describe("warnings on stderr without --verbose", () => {
  it.each([
    ["the request log off", "off" as const],
    ["a request log callback", () => undefined],
  ])("prints the legacy-route warning with %s, and no request lines", async (_case, log) => {
    const emu = await startTestEmulator({ clock: new Date("2026-06-01T00:00:00Z"), log });
    running.push(emu);
    const output = await stderrDuring(async () => {
      const res = await client(emu).call("GET", `/projects/${emu.projectId}/auth/integrations`);
      expect(res.status).toBe(200);
    });
    expect(output).toContain("svc emulator: warning: a client called the legacy auth route GET /projects/{project_id}/auth/integrations, past its removal date");
    expect(output).not.toContain(`/api/v2/projects/${emu.projectId}/auth/integrations 200`);
  });

  it("prints the warning once per route, not once per request", async () => {
    const emu = await startTestEmulator({ clock: new Date("2026-06-01T00:00:00Z") });
    running.push(emu);
    const output = await stderrDuring(async () => {
      for (let i = 0; i < 3; i++) await client(emu).call("GET", `/projects/${emu.projectId}/auth/integrations`);
    });
    expect(output.match(/legacy auth route/g)).toHaveLength(1);
  });
});

describe("the PostgreSQL server's lines in the emulator's stderr", () => {
  it.each([
    ["postgres: 2026-11-22 03:51:03.880 UTC [4350] LOG:  starting PostgreSQL 17.10", true],
    ["postgres: 2026-11-22 03:51:03.880 UTC [4350] DETAIL:  Connection matched file", true],
    ["postgres: 2026-11-22 03:51:03.880 UTC [4350] WARNING:  could not flush dirty data", false],
    ["postgres: 2026-11-22 03:51:03.880 UTC [4350] FATAL:  could not create shared memory segment", false],
    ["postgres could not start: initdb exited with code 1", false],
    ["warning: terminating the sessions on svc_abc_neondb", false],
  ])("treats %j as routine: %s", (line, routine) => {
    expect(isRoutineServerLine(line)).toBe(routine);
  });

  it.each([
    ["off", false],
    ["text", true],
    ["json", true],
  ] as const)("prints routine lines with the request log %s: %s", async (sink, printed) => {
    const output = await stderrDuring(async () => {
      new RequestLog(sink).detail("postgres: LOG:  database system is ready to accept connections");
      new RequestLog(sink).notice("warning: always shown");
    });
    expect(output.includes("database system is ready")).toBe(printed);
    expect(output).toContain("svc emulator: warning: always shown");
  });
});
