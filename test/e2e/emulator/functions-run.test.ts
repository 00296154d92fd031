/**
 * Deployed functions run in the emulator, over real HTTP: each invocation_url answers Node's fetch
 * and curl with the path the caller used and the platform's environment; a redeploy swaps the
 * process; a throwing handler gets a 500 without its stack; a crashed process starts again; a
 * function that never answers times out; deleting the function or its branch, or leaving it idle,
 * stops its process; a custom domain reaches it by Host; faults apply to invocations.
 */
import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { eventually, isAlive } from "../dev/dev-harness.js";
import { branchPath, deployModule, invocations } from "./functions-helpers.js";
import { createTempTree } from "../../helpers/temp-dir.js";
import { client, startTestEmulator, zipOf, type TestClient } from "./helpers.js";

/** A function that reports what it sees, fails on request, and names its version. */
function probe(version: string): string {
  return `
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/throw") throw new Error("kaboom in the handler");
    if (url.pathname === "/exit") process.exit(3);
    if (url.pathname === "/hang") return new Promise(() => {});
    return Response.json({
      version: ${JSON.stringify(version)},
      path: url.pathname + url.search,
      host: request.headers.get("host"),
      method: request.method,
      body: request.method === "POST" ? await request.text() : null,
      pid: process.pid,
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("npm_"))),
    });
  },
};
`;
}

interface ProbeAnswer {
  version: string;
  path: string;
  host: string;
  method: string;
  body: string | null;
  pid: number;
  env: Record<string, string>;
}

async function call(url: string, init?: RequestInit): Promise<ProbeAnswer> {
  const res = await fetch(url, init);
  expect(res.status).toBe(200);
  return (await res.json()) as ProbeAnswer;
}

describe("functions running in the emulator", () => {
  let emu: RunningEmulator;
  let api: TestClient;
  let probeUrl: string;
  let otherUrl: string;

  beforeAll(async () => {
    emu = await startTestEmulator({ functions: { idleMs: 60_000 } });
    api = client(emu);
    expect((await api.call("POST", `${branchPath(emu)}/buckets`, { name: "files" })).status).toBe(201);
    probeUrl = await deployModule(emu, "probe", probe("v1"), { environment: { GREETING: "hello", DATABASE_URL: "postgresql://own@override/db" } });
    otherUrl = await deployModule(emu, "other", probe("other"));
  }, 60_000);
  afterAll(() => emu?.close());

  it("answers Node's fetch on its own port with the path, query, method, body and Host the caller used", async () => {
    const port = new URL(probeUrl).port;
    const got = await call(`${probeUrl}a/b%20c?x=1&y=%2F`, { method: "POST", body: "payload" });
    expect([got.version, got.path, got.method, got.body, got.host]).toEqual(["v1", "/a/b%20c?x=1&y=%2F", "POST", "payload", `127.0.0.1:${port}`]);
    expect(new URL(otherUrl).port).not.toBe(port);
  });

  it("answers curl", async () => {
    const { stdout } = await promisify(execFile)("curl", ["-s", "--max-time", "10", `${probeUrl}from-curl`]);
    expect((JSON.parse(stdout) as ProbeAnswer).path).toBe("/from-curl");
  });

  it("gives the function the platform's variables of its branch and its own env last, nothing of the emulator's environment", async () => {
    const { env } = await call(probeUrl);
    expect(env.SVC_BRANCH).toBe("main");
    expect(env.GREETING).toBe("hello");
    // The deployment's own env wins over the platform's variable of the same name.
    expect(env.DATABASE_URL).toBe("postgresql://own@override/db");
    expect(env.DATABASE_URL_UNPOOLED).toMatch(/^postgresql:\/\/neondb_owner:[^@]+@ep-[a-z0-9-]+\.us-east-2\.aws\.emulator\.invalid\/neondb\?sslmode=require$/);
    expect(env.SVC_FUNCTION_OTHER_URL).toBe(otherUrl);
    expect(env.SVC_FUNCTION_PROBE_URL).toBeUndefined();
    expect(env.AWS_ENDPOINT_URL_S3).toBe(`${emu.url}/s3/${emu.defaultBranchId}`);
    expect(env.AWS_REGION).toBe("aws-us-east-2");
    expect(env.AWS_ACCESS_KEY_ID).toMatch(/^nak_live_[0-9a-f]{32}$/);
    expect(env.AWS_SECRET_ACCESS_KEY).toMatch(/^nsk_live_[0-9a-f]{64}$/);
    expect(env.SVC_AI_GATEWAY_BASE_URL).toBe(`https://${emu.defaultBranchId}.ai.us-east-2.aws.emulator.invalid`);
    for (const name of Object.keys(env)) expect(["VITEST", "PATH", "HOME", "NODE_OPTIONS"]).not.toContain(name);
  });

  it("answers a throwing handler with a 500 and no stack, and logs the error", async () => {
    const res = await fetch(`${probeUrl}throw`);
    expect([res.status, res.headers.get("content-type"), await res.text()]).toEqual([500, "text/plain; charset=utf-8", "Internal Server Error"]);
    const logged = await eventually(async () => (await invocations(emu, "probe")).find((i) => i.path === "/throw"), (found) => found !== undefined);
    expect(logged).toMatchObject({ source: "http", method: "GET", status: 500, deployment_id: 1, error: expect.stringContaining("kaboom in the handler") });
  });

  it("starts a crashed process again on the next request", async () => {
    const before = (await call(probeUrl)).pid;
    const crash = await fetch(`${probeUrl}exit`).then((r) => r.status, () => "reset");
    expect([502, "reset"]).toContain(crash);
    await eventually(async () => isAlive(before), (up) => !up);
    const after = await call(probeUrl);
    expect([after.version, after.pid === before]).toEqual(["v1", false]);
  });

  it("swaps the process when the function is redeployed; the old one stops", async () => {
    const old = await call(otherUrl);
    await deployModule(emu, "other", probe("other-v2"));
    const fresh = await call(otherUrl);
    expect([fresh.version, fresh.pid === old.pid]).toEqual(["other-v2", false]);
    await eventually(async () => isAlive(old.pid), (up) => !up);
  });

  it("answers a WebSocket upgrade with 501", async () => {
    const port = Number(new URL(probeUrl).port);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/ws", headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } });
      req.on("response", (res) => resolve(res.statusCode ?? 0));
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(501);
  });

  it("reaches a function through its custom domain on the emulator's port, by Host", async () => {
    expect((await api.call("POST", `${branchPath(emu)}/custom-domains`, { domain: "shop.example.com", entity_type: "function", entity_id: "probe" })).status).toBe(201);
    await emu.settle();
    const port = Number(new URL(emu.url).port);
    const answer = await new Promise<ProbeAnswer>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/checkout?id=7", headers: { host: `shop.example.com:${port}` } }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve(JSON.parse(text) as ProbeAnswer));
      });
      req.on("error", reject);
      req.end();
    });
    expect([answer.path, answer.host]).toEqual(["/checkout?id=7", `shop.example.com:${port}`]);
    // Another Host is still the management API.
    expect((await api.call("GET", `/projects/${emu.projectId}`)).status).toBe(200);
  });

  it("stops the process and closes the port when the function is deleted", async () => {
    const url = await deployModule(emu, "doomed", probe("doomed"));
    const { pid } = await call(url);
    expect((await api.call("DELETE", `${branchPath(emu)}/functions/doomed`)).status).toBe(204);
    await eventually(async () => isAlive(pid), (up) => !up);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("stops the functions of a deleted branch", async () => {
    const branch = await api.call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "short-lived" } });
    await emu.settle();
    const url = await deployModule(emu, "tmp", probe("tmp"), { branchId: branch.body.branch.id });
    const answer = await call(url);
    expect(answer.env.SVC_BRANCH).toBe("short-lived");
    expect((await api.call("DELETE", `/projects/${emu.projectId}/branches/${branch.body.branch.id}`)).status).toBe(200);
    await eventually(async () => isAlive(answer.pid), (up) => !up);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe("function timeouts and faults", () => {
  let emu: RunningEmulator;
  let probeUrl: string;
  let otherUrl: string;

  beforeAll(async () => {
    emu = await startTestEmulator({ functions: { timeoutMs: 1500 } });
    probeUrl = await deployModule(emu, "probe", probe("v1"));
    otherUrl = await deployModule(emu, "other", probe("other"));
    // A cold start counts against the timeout: warm both processes first (a slow start answers 504 once).
    for (const url of [probeUrl, otherUrl]) await eventually(async () => (await fetch(url)).status, (status) => status === 200);
  }, 60_000);
  afterAll(() => emu?.close());

  it("answers 504 when the function does not answer in time, and records a timeout", async () => {
    const res = await fetch(`${probeUrl}hang`);
    expect(res.status).toBe(504);
    const logged = await eventually(async () => (await invocations(emu, "probe")).find((i) => i.path === "/hang"), (found) => found !== undefined);
    expect(logged).toMatchObject({ status: "timeout", error: expect.stringContaining("did not answer within 1500 ms") });
  });

  it("applies invocation fault rules (a 503 from the front door, a delay into a timeout) and leaves API requests alone", async () => {
    emu.state.faults.set(`status=503,path=/__functions/${emu.defaultBranchId}/probe/**,nth=1;delay=3000,path=/__functions/*/other/slow,times=1`);
    try {
      const faulted = await fetch(`${probeUrl}x`);
      expect([faulted.status, faulted.headers.get("x-emulator-fault")]).toEqual([503, "0"]);
      expect((await fetch(`${probeUrl}x`)).status).toBe(200);
      expect((await client(emu).call("GET", `/projects/${emu.projectId}`)).status).toBe(200);
      const slow = await fetch(`${otherUrl}slow`);
      expect(slow.status).toBe(504);
      const records = await invocations(emu);
      expect(records.filter((r) => r.fault !== undefined).map((r) => [r.function_slug, r.path, r.status, r.fault])).toEqual([["probe", "/x", 503, "0"], ["other", "/slow", "timeout", "1"]]);
    } finally {
      emu.state.faults.set(null);
    }
  });

});

describe("idle function processes", () => {
  it("stop after the idle time and start again on the next request", async () => {
    const emu = await startTestEmulator({ functions: { idleMs: 200 } });
    try {
      const url = await deployModule(emu, "sleepy", probe("sleepy"));
      const first = await call(url);
      await eventually(async () => isAlive(first.pid), (up) => !up);
      const second = await call(url);
      expect(second.pid).not.toBe(first.pid);
    } finally {
      await emu.close();
    }
  }, 30_000);
});

describe("functions across branches, resets and restarts", () => {
  it("runs an inherited function on a child branch with the child's variables", async () => {
    const emu = await startTestEmulator();
    try {
      await deployModule(emu, "probe", probe("parent"));
      const child = await client(emu).call<{ branch: { id: string } }>("POST", `/projects/${emu.projectId}/branches`, { branch: { name: "feature" } });
      await emu.settle();
      const fn = await client(emu).call<{ function: { invocation_url: string } }>("GET", `${branchPath(emu, child.body.branch.id)}/functions/probe`);
      const answer = await call(fn.body.function.invocation_url);
      expect([answer.version, answer.env.SVC_BRANCH]).toEqual(["parent", "feature"]);
    } finally {
      await emu.close();
    }
  }, 60_000);

  it("stops every process of the old state on reset", async () => {
    const emu = await startTestEmulator();
    try {
      const url = await deployModule(emu, "probe", probe("before-reset"));
      const { pid } = await call(url);
      await emu.state.reset();
      await eventually(async () => isAlive(pid), (up) => !up);
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      await emu.close();
    }
  }, 60_000);

  it("runs a function deployed before a restart on the same data dir, from its stored archive", async () => {
    const tree = createTempTree();
    try {
      const first = await startTestEmulator({ dataDir: tree.path("data") });
      await deployModule(first, "probe", probe("persisted"), { environment: { GREETING: "kept" } });
      await first.close();
      const second = await startTestEmulator({ dataDir: tree.path("data") });
      try {
        const fn = await client(second).call<{ function: { invocation_url: string } }>("GET", `${branchPath(second)}/functions/probe`);
        const answer = await call(fn.body.function.invocation_url);
        expect([answer.version, answer.env.GREETING]).toEqual(["persisted", "kept"]);
      } finally {
        await second.close();
      }
    } finally {
      tree.remove();
    }
  }, 60_000);

  it("hostile: an archive edited in the data dir between two runs is refused when the function starts, and none of it runs", async () => {
    const tree = createTempTree();
    try {
      const first = await startTestEmulator({ dataDir: tree.path("data") });
      await deployModule(first, "probe", probe("deployed"));
      await first.close();
      const blobs = readdirSync(tree.path("data/blobs"));
      expect(blobs).toHaveLength(1);
      writeFileSync(tree.path(`data/blobs/${blobs[0] ?? ""}`), await zipOf({ "index.mjs": probe("edited on disk") }));
      const second = await startTestEmulator({ dataDir: tree.path("data") });
      try {
        const fn = await client(second).call<{ function: { invocation_url: string } }>("GET", `${branchPath(second)}/functions/probe`);
        const res = await fetch(fn.body.function.invocation_url);
        expect(res.status).toBe(502);
        expect(await res.text()).not.toContain("edited on disk");
        const [record] = await invocations(second, "probe");
        expect(record?.error).toContain("the stored archive is not the one deployed");
      } finally {
        await second.close();
      }
    } finally {
      tree.remove();
    }
  }, 60_000);
});
