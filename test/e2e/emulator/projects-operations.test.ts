import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperationListResponseSchema, ProjectCreateResponseSchema, ProjectListResponseSchema, ProjectResponseSchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, startTestEmulator, type TestClient } from "./helpers.js";

describe("projects", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator();
    api = client(emu);
  });
  afterAll(() => emu.close());

  it("lists the seeded project with the cursor envelope, applications and integrations", async () => {
    const res = await api.call("GET", "/projects");
    expect(res.status).toBe(200);
    const body = ProjectListResponseSchema.parse(res.body);
    expect(body.projects.map((p) => p.id)).toContain(emu.projectId);
    expect(body.applications).toEqual({});
    expect(body.integrations).toEqual({});
    expect(body.pagination?.cursor).toMatch(/~/);
  });

  it("creates a project with its default branch, endpoint, role, database, operations and connection URI", async () => {
    const res = await api.call("POST", "/projects", { project: { name: "created" } });
    expect(res.status).toBe(201);
    const body = ProjectCreateResponseSchema.parse(res.body);
    expect(body.project.region_id).toBe("aws-us-east-2");
    expect(body.project.pg_version).toBe(17);
    expect(body.branch.name).toBe("main");
    expect(body.branch.id).toMatch(/^br-[a-z0-9-]+$/);
    expect(body.endpoints[0]?.type).toBe("read_write");
    expect(body.roles.map((r) => r.name)).toEqual(["neondb_owner"]);
    expect(body.databases.map((d) => d.name)).toEqual(["neondb"]);
    expect(body.operations.map((o) => o.action)).toEqual(["create_timeline", "start_compute"]);
    expect(body.connection_uris[0]?.connection_uri).toMatch(/^postgresql:\/\/neondb_owner:[A-Za-z0-9]{24}@ep-[a-z0-9-]+\.us-east-2\.aws\.emulator\.invalid\/neondb\?sslmode=require$/);
  });

  it("pages the project list newest first with the cursor until an empty page", async () => {
    for (const name of ["page-a", "page-b", "page-c"]) await api.call("POST", "/projects", { project: { name } });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await api.call("GET", `/projects?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      const body = ProjectListResponseSchema.parse(res.body);
      if (body.projects.length === 0) break;
      seen.push(...body.projects.map((p) => p.name));
      cursor = body.pagination?.cursor;
    }
    expect(seen.slice(0, 3)).toEqual(["page-c", "page-b", "page-a"]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain("emulator");
  });

  it.each([
    ["a limit above 400", "/projects?limit=401", 400],
    ["a limit of zero", "/projects?limit=0", 400],
    ["a malformed project id", "/projects/Not_An_Id", 400],
    ["an unknown project", "/projects/no-such-project-1", 404],
  ])("answers %s with its status and an error body", async (_name, path, status) => {
    const res = await api.call<{ code: string; message: string; request_id: string }>("GET", path);
    expect(res.status).toBe(status);
    expect(res.body.code).toMatch(/^[a-z_]+$/);
    expect(res.body.message.length).toBeGreaterThan(10);
    expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
  });

  it("rejects a create body with a wrongly typed known field and lists the issue path", async () => {
    const res = await api.call<{ issues: { path: string }[] }>("POST", "/projects", { project: { name: "x", pg_version: "seventeen" } });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i) => i.path)).toContain("project.pg_version");
  });

  it("patches the name and the history window, returning an apply_storage_config operation", async () => {
    const res = await api.call("PATCH", `/projects/${emu.projectId}`, { project: { name: "renamed", history_retention_seconds: 3600 } });
    expect(res.status).toBe(200);
    expect(ProjectResponseSchema.parse(res.body).project.name).toBe("renamed");
    expect((res.body.operations as { action: string }[]).map((o) => o.action)).toEqual(["apply_storage_config"]);
  });

  it("refuses a history window over the plan's cap with 403 plan_limit_exceeded", async () => {
    const res = await api.call<{ code: string }>("PATCH", `/projects/${emu.projectId}`, { project: { history_retention_seconds: 99_999_999 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("plan_limit_exceeded");
  });
});

describe("operations and the project lock", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  beforeAll(async () => {
    emu = await startTestEmulator({ clock: "manual", timings: { opSchedulingMs: 0, opRunMs: 200, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0, claimTransferMs: 0 } });
    api = client(emu);
  });
  afterAll(() => emu.close());

  it("shows create_branch running and start_compute scheduling, as the platform does", async () => {
    const res = await api.call<{ operations: { action: string; status: string }[]; branch: { current_state: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "locked-1" }, endpoints: [{ type: "read_write" }] });
    expect(res.status).toBe(201);
    expect(res.body.operations.map((o) => [o.action, o.status])).toEqual([["create_branch", "running"], ["start_compute", "scheduling"]]);
    expect(res.body.branch.current_state).toBe("init");
  });

  it("answers control-plane mutations with 423 naming the blocking operation while it runs", async () => {
    const res = await api.call<{ code: string; message: string }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "locked-2" } });
    expect(res.status).toBe(423);
    expect(res.body.code).toBe("locked");
    expect(res.body.message).toMatch(/create_branch/);
    const list = await api.call<{ branches: { name: string }[] }>("GET", `/projects/${emu.projectId}/branches`);
    expect(list.body.branches.map((b) => b.name)).not.toContain("locked-2");
  });

  it("keeps reads and platform resources unlocked while an operation runs", async () => {
    expect((await api.call("GET", `/projects/${emu.projectId}`)).status).toBe(200);
    const bucket = await api.call("POST", `/projects/${emu.projectId}/branches/${emu.defaultBranchId}/buckets`, { name: "during-lock" });
    expect(bucket.status).toBe(201);
  });

  it("finishes the chain as the clock advances: running, then finished, and the branch becomes ready", async () => {
    emu.clock.advance(200);
    const ops = OperationListResponseSchema.parse((await api.call("GET", `/projects/${emu.projectId}/operations`)).body);
    const [newest, previous] = ops.operations;
    expect([newest?.action, newest?.status]).toEqual(["start_compute", "running"]);
    expect([previous?.action, previous?.status]).toEqual(["create_branch", "finished"]);
    emu.clock.advance(200);
    const single = await api.call<{ operation: { status: string; total_duration_ms: number } }>("GET", `/projects/${emu.projectId}/operations/${newest?.id}`);
    expect(single.body.operation.status).toBe("finished");
    expect(single.body.operation.total_duration_ms).toBe(400);
    const retry = await api.call("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "locked-2" } });
    expect(retry.status).toBe(201);
    await emu.settle();
  });

  it("locks the project for a system operation started with lockProject", async () => {
    await emu.settle();
    emu.state.lockProject(emu.projectId, 1000);
    const res = await api.call<{ message: string }>("PATCH", `/projects/${emu.projectId}`, { project: { name: "x" } });
    expect(res.status).toBe(423);
    expect(res.body.message).toMatch(/check_availability/);
    await emu.settle();
    expect((await api.call("PATCH", `/projects/${emu.projectId}`, { project: { name: "x" } })).status).toBe(200);
  });

  it("locks through the admin route system-operation as well", async () => {
    const res = await fetch(`${emu.url}/__emulator/system-operation`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ project_id: emu.projectId, duration_ms: 500, action: "tenant_reattach" }),
    });
    expect(res.status).toBe(200);
    expect((await api.call("POST", `/projects/${emu.projectId}/branches`, {})).status).toBe(423);
    await emu.settle();
  });

  it("lets a client that backs off from 100 ms get through once the operation ends (system clock)", async () => {
    const live = await startTestEmulator({ timings: { opSchedulingMs: 0, opRunMs: 150, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0, claimTransferMs: 0 } });
    try {
      const c = client(live);
      expect((await c.call("POST", `/projects/${live.projectId}/branches`, { branch: { name: "one" } })).status).toBe(201);
      let status = 0;
      for (let wait = 100, i = 0; i <= 5; i++, wait *= 2) {
        status = (await c.call("POST", `/projects/${live.projectId}/branches`, { branch: { name: "two" } })).status;
        if (status !== 423) break;
        await new Promise((r) => setTimeout(r, wait));
      }
      expect(status).toBe(201);
    } finally {
      await live.close();
    }
  });

  it("ends an operation failed when an opfail fault rule matches its action", async () => {
    const faulty = await startTestEmulator({ faults: "opfail=1,action=create_branch" });
    try {
      const res = await client(faulty).call<{ operations: { action: string; status: string; error?: string; failures_count: number }[] }>("POST", `/projects/${faulty.projectId}/branches`, { branch: { name: "f" } });
      const op = res.body.operations[0];
      expect([op?.action, op?.status, op?.error, op?.failures_count]).toEqual(["create_branch", "failed", "injected operation failure", 1]);
    } finally {
      await faulty.close();
    }
  });
});
