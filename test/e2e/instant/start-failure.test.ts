import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresBackend } from "../../../src/emulator/postgres/backend.js";
import { isRoot } from "../../../src/emulator/postgres/unix-user.js";
import { call, startHarness } from "./harness.js";

const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

describe("when PostgreSQL cannot be used", () => {
  it("answers 500 create_failed and logs why for an unreachable external server, and keeps serving", async () => {
    const backend = createPostgresBackend({ postgres: "postgresql://nobody:secret-pass@127.0.0.1:1/postgres" });
    const h = await startHarness(backend);
    try {
      const res = await call(`${h.url}/api/v1/database`, "POST", { ref: "down" });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: "create_failed", message: "Failed to create the database." });
      expect(h.log.join("\n")).toContain("cannot use the PostgreSQL server at 127.0.0.1:1");
      expect(h.log.join("\n")).not.toContain("secret-pass");
      expect((await call(`${h.url}/api/v1/database`, "POST", {})).status).toBe(400);
    } finally {
      await h.close();
      await backend.stop();
    }
  });

  it("names the path the server's user cannot reach when the data dir is private (as root), and starts otherwise", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "svc-instant-private-"));
    cleanup.push(parent);
    await chmod(parent, 0o700);
    const dataDir = path.join(parent, "data");
    await mkdir(dataDir);
    const backend = createPostgresBackend({ dataDir });
    const h = await startHarness(backend);
    try {
      const res = await call(`${h.url}/api/v1/database`, "POST", { ref: "private" });
      if (isRoot()) {
        expect(res.status).toBe(500);
        expect(h.log.join("\n")).toContain(`postgres could not start:`);
        expect(h.log.join("\n")).toContain(`(running as root: ${parent} must be readable and traversable by user postgres; or use --postgres URL)`);
      } else {
        expect(res.status).toBe(201);
      }
    } finally {
      await h.close();
      await backend.stop();
    }
  });
});
