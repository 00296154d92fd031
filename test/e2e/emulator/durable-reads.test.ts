import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator } from "./helpers.js";

/** Holds the rename that completes a state.json write while `held` is set (a slow disk on demand). */
const gate = vi.hoisted(() => ({ held: null as Promise<void> | null, reached: null as (() => void) | null }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      if (to.endsWith("state.json") && gate.held !== null) {
        gate.reached?.();
        await gate.held;
      }
      return actual.rename(from, to);
    },
  };
});

const dirs: string[] = [];
const running: RunningEmulator[] = [];

afterEach(async () => {
  for (const emu of running.splice(0)) await emu.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Holds the next state.json write; resolves once it is held, with the function that lets it finish. */
function holdNextWrite(): { reached: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  gate.held = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (gate.reached = resolve));
  return {
    reached,
    release: () => {
      gate.held = null;
      release();
    },
  };
}

describe("a change is visible only once it is on disk", () => {
  it.each([
    ["GET /api/v2 of the created branch", (emu: RunningEmulator, id: string) => fetch(`${emu.apiHost}/projects/${emu.projectId}/branches/${id}`, { headers: { authorization: `Bearer ${emu.apiKey}` } })],
    ["GET /__emulator/state", (emu: RunningEmulator) => fetch(`${emu.url}/__emulator/state`, { headers: { authorization: `Bearer ${emu.apiKey}` } })],
  ])("%s waits while the write of a created branch is in progress", async (_case, read) => {
    const dir = mkdtempSync(join(tmpdir(), "svc-emu-durable-"));
    dirs.push(dir);
    const emu = await startTestEmulator({ dataDir: dir, idSeed: 7 });
    running.push(emu);
    const held = holdNextWrite();
    const created = client(emu).call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "on-disk-first" } });
    await held.reached;
    const snapshot = emu.state.snapshot() as unknown as { projects: Array<{ branches: Array<{ id: string; name: string }> }> };
    const id = snapshot.projects.flatMap((p) => p.branches).find((b) => b.name === "on-disk-first")?.id ?? "";
    expect(id).not.toBe("");

    const events: string[] = [];
    const reading = read(emu, id).then(async (res) => {
      events.push(`read answered, state.json has the branch: ${readFileSync(join(dir, "state.json"), "utf8").includes("on-disk-first")}`);
      return res;
    });
    // The health route never waits: once it answered, the read above has reached the server.
    expect((await fetch(`${emu.url}/__emulator/health`)).status).toBe(200);
    events.push("write released");
    held.release();

    expect((await created).status).toBe(201);
    expect((await reading).status).toBe(200);
    expect(events).toEqual(["write released", "read answered, state.json has the branch: true"]);
  });
});
