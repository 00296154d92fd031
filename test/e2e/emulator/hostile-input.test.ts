/**
 * Hostile input against the emulator over real HTTP: bucket names a URL parser would rewrite,
 * archive entry names with control characters, request paths that try to forge log lines, and
 * the request log naming every injected fault (including a reset after a committed mutation).
 */
import { request } from "node:http";
import JSZip from "jszip";
import { afterEach, describe, expect, it } from "vitest";
import { formatLogLine, type RequestLogEntry } from "../../../src/emulator/request-log.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, deploy, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** Sends `path` byte for byte (fetch would normalise dot segments away before sending). */
function rawRequest(target: RunningEmulator, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${target.apiKey}`, ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) }));
    });
    req.on("error", reject);
    req.end();
  });
}

function branchPath(target: RunningEmulator): string {
  return `/projects/${target.projectId}/branches/${target.defaultBranchId}`;
}

describe("bucket names a URL parser would rewrite", () => {
  it.each([".", "..", "%2e", ".%2E", "%2e%2e"])("refuses to create a bucket named %j with 400, creating nothing", async (name) => {
    emu = await startTestEmulator();
    const api = client(emu);

    const res = await api.call("POST", `${branchPath(emu)}/buckets`, { name });

    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body["issues"])).toContain("dot segment");
    const list = await api.call<{ buckets: unknown[] }>("GET", `${branchPath(emu)}/buckets`);
    expect(list.body.buckets).toEqual([]);
  });

  it.each(["%2e%2e", "%2E"])("answers 400 to a bucket route whose decoded name is a dot segment (%s), deleting nothing", async (encoded) => {
    emu = await startTestEmulator();
    await client(emu).call("POST", `${branchPath(emu)}/buckets`, { name: "keep" });

    const res = await rawRequest(emu, "DELETE", `/api/v2${branchPath(emu)}/buckets/${encoded}`);

    expect(res.status).toBe(400);
    expect(res.body["code"]).toBe("invalid_request");
    const list = await client(emu).call<{ buckets: { name: string }[] }>("GET", `${branchPath(emu)}/buckets`);
    expect(list.body.buckets.map((b) => b.name)).toEqual(["keep"]);
  });

  it("refuses names with bidi-override or zero-width characters with 400", async () => {
    emu = await startTestEmulator();
    for (const name of ["evil\u202egnp", "zero\u200bwidth"]) {
      const res = await client(emu).call("POST", `${branchPath(emu)}/buckets`, { name });
      expect(res.status).toBe(400);
    }
  });
});

describe("archive entry names with control characters", () => {
  it.each([
    ["a newline", "lib/fake\nline.js", "\\u000a"],
    ["a NUL", "lib/nul\u0000.js", "\\u0000"],
    ["a C1 control (NEL)", "lib/nel\u0085.js", "\\u0085"],
    ["DEL", "lib/del\u007f.js", "\\u007f"],
  ])("answers 422 unsafe_archive_entry for %s, escaping the name in the message and storing nothing", async (_label, entry, escaped) => {
    emu = await startTestEmulator();
    const zip = new JSZip();
    zip.file("index.mjs", "export default () => new Response('ok')");
    zip.file(entry, "x", { createFolders: false });
    const bytes = await zip.generateAsync({ type: "uint8array" });

    const res = await deploy(emu, `${branchPath(emu)}/functions/ctrl/deployments`, { zip: bytes, runtime: "nodejs24" });

    expect(res.status).toBe(422);
    expect(res.body["code"]).toBe("unsafe_archive_entry");
    expect(String(res.body["message"])).toContain(escaped);
    expect(String(res.body["message"])).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect((await client(emu).call("GET", `${branchPath(emu)}/functions/ctrl`)).status).toBe(404);
  });
});

describe("an unsafe archive uploaded again", () => {
  it("is refused every time, on every function, though its check is remembered", async () => {
    emu = await startTestEmulator();
    const zip = new JSZip();
    zip.file("index.mjs", "export default () => new Response('ok')");
    zip.file("lib/again\u0000.js", "x", { createFolders: false });
    const bytes = await zip.generateAsync({ type: "uint8array" });
    for (const slug of ["first", "second", "first"]) {
      const res = await deploy(emu, `${branchPath(emu)}/functions/${slug}/deployments`, { zip: bytes, runtime: "nodejs24" });
      expect(res.status).toBe(422);
      expect(res.body["code"]).toBe("unsafe_archive_entry");
      expect((await client(emu).call("GET", `${branchPath(emu)}/functions/${slug}`)).status).toBe(404);
    }
  });
});

/** Sends a request byte for byte and reads the status and every X-Request-ID header line of the answer. */
function requestIds(target: RunningEmulator, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; ids: string[] }> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ids: res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]?.toLowerCase() === "x-request-id") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the X-Request-ID of answers on a socket", () => {
  // Hostile row: the id is set on Node's response before the route answers (no web Headers per answer);
  // no answer may lose it, carry it twice, or echo one a client forged.
  it("is on every answer exactly once: a valid id echoed, one of 129 characters, with a space or a latin1 letter replaced", async () => {
    emu = await startTestEmulator({ limits: { jsonBodyBytes: 1024 } });
    const auth = { authorization: `Bearer ${emu.apiKey}` };
    const project = `/api/v2/projects/${emu.projectId}`;
    const json = { ...auth, "content-type": "application/json" };
    const answers = [
      [401, "GET", project, {}, undefined],
      [200, "GET", project, auth, undefined],
      [404, "GET", "/api/v2/nowhere", auth, undefined],
      [405, "PUT", project, auth, undefined],
      [400, "PATCH", project, json, "{not json"],
      [413, "PATCH", project, json, JSON.stringify({ project: { name: "x".repeat(2048) } })],
    ] as const;
    for (const [status, method, path, headers, body] of answers) {
      for (const [sent, echoed] of [["req-42.abc", true], ["a".repeat(129), false], ["a b", false], ["caf\u00e9", false]] as const) {
        const got = await requestIds(emu, method, path, { ...headers, "x-request-id": sent }, body);
        expect([method, path, got.status]).toEqual([method, path, status]);
        expect(got.ids).toHaveLength(1);
        if (echoed) expect(got.ids[0]).toBe(sent);
        else expect(got.ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }
    }
  });
});

describe("the request log", () => {
  it("escapes decoded paths and ignored field names, so a %0A cannot forge a line", async () => {
    const lines: RequestLogEntry[] = [];
    emu = await startTestEmulator({ log: (entry) => lines.push(entry) });

    await rawRequest(emu, "GET", `/api/v2/projects/x%0A2026-01-01T00:00:00.000Z%20DELETE%20/api/v2/projects/p%20204%20%E2%80%AE`);
    await client(emu).call("PATCH", `/projects/${emu.projectId}`, { project: { name: "shop" }, "bad\nfield\u202e": 1 });

    const forged = lines.find((l) => l.path.startsWith("/api/v2/projects/x"));
    expect(forged?.path).toBe("/api/v2/projects/x\\u000a2026-01-01T00:00:00.000Z DELETE /api/v2/projects/p 204 \\u202e");
    const patched = lines.find((l) => l.method === "PATCH");
    expect(patched?.ignored).toEqual(["bad\\u000afield\\u202e"]);
    for (const entry of lines) expect(formatLogLine(entry)).not.toMatch(/[\n\r\u202e]/);
    expect(emu.state.requests().map((r) => r.path)).toContain(forged?.path);
  });

  it("names every injected fault with its rule number, including a reset after a committed mutation", async () => {
    emu = await startTestEmulator({
      faults: "delay=1,method=GET,nth=1;reset=1,phase=after,method=POST,path=/api/v2/projects/*/branches/*/buckets,nth=1;status=503,method=PATCH,nth=1",
    });
    const api = client(emu);

    await api.call("GET", `/projects/${emu.projectId}`);
    await expect(api.call("POST", `${branchPath(emu)}/buckets`, { name: "landed" })).rejects.toThrow();
    await api.call("PATCH", `/projects/${emu.projectId}`, { project: { name: "x" } });

    const entries = emu.state.requests();
    expect(entries.map((e) => [e.method, e.status, e.fault])).toEqual([
      ["GET", 200, "0"],
      ["POST", "reset", "1"],
      ["PATCH", 503, "2"],
    ]);
    const buckets = await api.call<{ buckets: { name: string }[] }>("GET", `${branchPath(emu)}/buckets`);
    expect(buckets.body.buckets.map((b) => b.name)).toEqual(["landed"]);
    expect(emu.state.faults.injected().map((f) => f.rule)).toEqual([0, 1, 2]);
  });
});
