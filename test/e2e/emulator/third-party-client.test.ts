import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BranchCreateResponseSchema,
  BranchListResponseSchema,
  ErrorBodySchema,
  OperationListResponseSchema,
  ProjectCreateResponseSchema,
  ProjectResponseSchema,
  RegionListResponseSchema,
} from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { startTestEmulator } from "./helpers.js";

/** A client written against the platform, not this code base: raw fetch, its own headers. */
describe("a third-party client", () => {
  let emu: RunningEmulator;
  const seen: { path: string; status: number; type: string | null }[] = [];
  const send = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(emu.apiHost + path, { method, headers: { authorization: `Bearer ${emu.apiKey}`, "user-agent": "third-party/1.0", ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) });
    const text = await res.text();
    seen.push({ path: `${method} ${path}`, status: res.status, type: res.headers.get("content-type") });
    return { status: res.status, headers: res.headers, json: text === "" ? null : (JSON.parse(text) as unknown) };
  };
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu.close());

  it("may send unknown fields at every level: they are ignored", async () => {
    const res = await send("POST", "/projects", {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ project: { name: "third", future_flag: true, branch: { name: "trunk", colour: "blue" } }, client_hint: "x" }),
    });
    expect(res.status).toBe(201);
    const body = ProjectCreateResponseSchema.parse(res.json);
    expect(body.branch.name).toBe("trunk");
    expect(JSON.stringify(res.json)).not.toContain("future_flag");
    const logged = emu.state.requests().findLast((e) => e.method === "POST" && e.path === "/api/v2/projects");
    expect(logged?.ignored).toEqual(["project.future_flag", "project.branch.colour", "client_hint"]);
  });

  it("may leave every optional field out: an empty branch create and body-less POSTs work", async () => {
    const created = await send("POST", `/projects/${emu.projectId}/branches`, { headers: { "content-type": "application/json" }, body: "{}" });
    expect(created.status).toBe(201);
    const branch = BranchCreateResponseSchema.parse(created.json).branch;
    const setDefault = await send("POST", `/projects/${emu.projectId}/branches/${branch.id}/set_as_default`);
    expect(setDefault.status).toBe(200);
    await send("POST", `/projects/${emu.projectId}/branches/${emu.defaultBranchId}/set_as_default`);
  });

  it("may send unknown query parameters: they are ignored", async () => {
    const res = await send("GET", `/projects/${emu.projectId}/branches?sort_by=name&flavour=vanilla`);
    expect(res.status).toBe(200);
    BranchListResponseSchema.parse(res.json);
    expect(emu.state.requests().at(-1)?.ignored).toEqual(["?flavour"]);
  });

  it("parses every success body with the client's wire schemas", async () => {
    ProjectResponseSchema.parse((await send("GET", `/projects/${emu.projectId}`)).json);
    OperationListResponseSchema.parse((await send("GET", `/projects/${emu.projectId}/operations`)).json);
    RegionListResponseSchema.parse((await send("GET", "/regions")).json);
  });

  it.each([
    ["a wrong Content-Type", "POST", "/projects", { headers: { "content-type": "text/plain" }, body: "name=x" }, 415, "unsupported_media_type"],
    ["malformed JSON", "POST", "/projects", { headers: { "content-type": "application/json" }, body: "{not json" }, 400, "invalid_request"],
    ["a JSON body over 1 MiB", "POST", "/projects", { headers: { "content-type": "application/json" }, body: JSON.stringify({ project: { name: "x".repeat(1_100_000) } }) }, 413, "payload_too_large"],
    ["a wrong method", "PUT", "/projects", {}, 405, "method_not_allowed"],
    ["an unknown route", "GET", "/nowhere", {}, 404, "route_not_found"],
    ["a route not emulated", "GET", "/consumption_history/v2/projects", {}, 501, "not_implemented"],
  ])("gets a JSON error body for %s", async (_name, method, path, init, status, code) => {
    const res = await send(method, path, init);
    expect(res.status).toBe(status);
    expect(ErrorBodySchema.parse(res.json).code).toBe(code);
    if (status === 405) expect(res.headers.get("allow")).toBe("GET, POST");
  });

  it("saw Content-Type: application/json on every response with a body", () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const reply of seen.filter((r) => r.status !== 204)) expect([reply.path, reply.type]).toEqual([reply.path, expect.stringMatching(/^application\/json/)]);
  });
});
