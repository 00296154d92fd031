/**
 * The local loop end to end, as a user runs it: a policy with two functions, a schedule trigger
 * and a storage trigger, applied by the engine to an emulator with real databases. Each
 * invocation_url answers Node's fetch; a function queries DATABASE_URL with pg; advancing the
 * clock two minutes delivers exactly two schedule invocations with the right scheduled_at; an
 * object uploaded with the AWS SDK under the prefix delivers one storage invocation whose function
 * reads the object through the S3 endpoint with its AWS_* variables; the invocation log lists it all.
 * Chromium loads a function URL and shows its response.
 */
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import type { InvocationRecord } from "../../../src/emulator/functions/invocation-log.js";
import { apply, defineConfig } from "../../../src/v1.js";
import { createTempTree, type TempTree } from "../../helpers/temp-dir.js";
import { launchBrowser, SKIP_BROWSER } from "../instant/browser.js";
import { branchPath, invocations } from "./functions-helpers.js";
import { client, INSTANT } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** Answers with the notes of the branch database, read with pg through DATABASE_URL. */
const API = `
import pg from "pg";
export default async function handler(request) {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query("SELECT note FROM notes ORDER BY id");
    return Response.json({ branch: process.env.SVC_BRANCH, path: new URL(request.url).pathname, notes: rows.map((r) => r.note) });
  } finally {
    await db.end();
  }
}
`;

/** Records schedule runs and uploads (read back through the S3 endpoint) in the branch database. */
const WORKER = `
import pg from "pg";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
const s3 = new S3Client({ forcePathStyle: true });
async function record(kind, detail) {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    await db.query("INSERT INTO runs (kind, detail) VALUES ($1, $2)", [kind, detail]);
  } finally {
    await db.end();
  }
}
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (request.method !== "POST") return new Response("worker", { headers: { "content-type": "text/html" } });
    const delivery = await request.json();
    if (delivery.invocation_id !== request.headers.get("x-svc-trigger-invocation-id")) return new Response("id mismatch", { status: 400 });
    if (url.pathname === "/tick") await record("schedule", delivery.data.scheduled_at);
    else {
      const object = await s3.send(new GetObjectCommand({ Bucket: delivery.data.bucket_name, Key: delivery.data.object_key }));
      await record("upload", delivery.data.object_key + "=" + (await object.Body.transformToString()));
    }
    return new Response("done");
  },
};
`;

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.end();
  }
}

describe("functions of a policy applied to the emulator with real databases", () => {
  let emu: RunningEmulator;
  let tree: TempTree;
  let dbUrl: string;
  const urls: Record<string, string> = {};
  const logged: InvocationRecord[] = [];

  beforeAll(async () => {
    emu = await startEmulator({ realDatabases: true, clock: new Date("2026-11-26T10:00:30Z"), timings: INSTANT, functions: { log: (r) => logged.push(r) } });
    const uri = await client(emu).call<{ uri: string }>("GET", `/projects/${emu.projectId}/connection_uri?branch_id=${emu.defaultBranchId}&role_name=neondb_owner&database_name=neondb`);
    dbUrl = uri.body.uri;
    await query(dbUrl, "CREATE TABLE notes (id serial PRIMARY KEY, note text NOT NULL)");
    await query(dbUrl, "CREATE TABLE runs (id serial PRIMARY KEY, kind text NOT NULL, detail text NOT NULL)");
    // Rows of a hostile table: control characters, quotes and a bidi override travel as data.
    await query(dbUrl, "INSERT INTO notes (note) VALUES ($1), ($2)", ["first note", "line\nbreak \u202e'quoted\""]);

    tree = createTempTree({ "api/index.mjs": API, "worker/index.mjs": WORKER });
    symlinkSync(join(ROOT, "node_modules"), tree.path("node_modules"));
    const config = defineConfig({
      buckets: { uploads: {} },
      functions: { api: { name: "Notes API", source: "./api/index.mjs" }, worker: { name: "Worker", source: "./worker/index.mjs" } },
      triggers: {
        tick: { type: "schedule", function: "worker", cron: "* * * * *", functionPath: "/tick" },
        upload: { type: "storage_object_created", function: "worker", bucket: "uploads", prefix: "in/", functionPath: "/upload" },
      },
    });
    const result = await apply(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, baseDir: tree.root, polling: { initialMs: 20, maxMs: 50 } });
    expect(result.failed).toEqual([]);
    const listed = await client(emu).call<{ functions: { slug: string; invocation_url: string }[] }>("GET", `${branchPath(emu)}/functions`);
    for (const f of listed.body.functions) urls[f.slug] = f.invocation_url;
  }, 180_000);
  afterAll(async () => {
    await emu?.close();
    tree?.remove();
  });

  it("answers each invocation_url; the function reads the branch database through DATABASE_URL", async () => {
    expect(Object.keys(urls).sort()).toEqual(["api", "worker"]);
    const res = await fetch(`${urls.api}notes`);
    expect(await res.json()).toEqual({ branch: "main", path: "/notes", notes: ["first note", "line\nbreak \u202e'quoted\""] });
    expect(await (await fetch(urls.worker ?? "")).text()).toBe("worker");
  });

  it("delivers exactly two schedule invocations with their minutes when the clock advances two minutes", async () => {
    const res = await fetch(`${emu.url}/__emulator/clock`, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ advance_ms: 120_000 }) });
    expect(res.status).toBe(200);
    await emu.settle();
    const runs = await query<{ detail: string }>(dbUrl, "SELECT detail FROM runs WHERE kind = 'schedule' ORDER BY id");
    expect(runs.map((r) => r.detail)).toEqual(["2026-11-26T10:01:00Z", "2026-11-26T10:02:00Z"]);
  });

  it("delivers one storage invocation for an object uploaded with the AWS SDK, and the function reads it", async () => {
    const cred = await client(emu).call<{ token_id: string; s3_secret_access_key: string }>("POST", `${branchPath(emu)}/credentials`, { scopes: ["storage:write"], principal_type: "user" });
    const s3 = new S3Client({ endpoint: `${emu.url}/s3/${emu.defaultBranchId}`, forcePathStyle: true, region: "aws-us-east-2", credentials: { accessKeyId: cred.body.token_id, secretAccessKey: cred.body.s3_secret_access_key } });
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "in/report.txt", Body: "hello from s3" }));
    await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "elsewhere/skip.txt", Body: "not under the prefix" }));
    s3.destroy();
    await emu.settle();
    const runs = await query<{ detail: string }>(dbUrl, "SELECT detail FROM runs WHERE kind = 'upload' ORDER BY id");
    expect(runs.map((r) => r.detail)).toEqual(["in/report.txt=hello from s3"]);
  });

  it("lists every invocation in the invocation log, and gave each one to the log sink", async () => {
    const records = await invocations(emu);
    const summary = records.map((r) => [r.function_slug, r.source, r.trigger?.name ?? "-", r.method, r.path, r.status]);
    expect(summary).toEqual([
      ["api", "http", "-", "GET", "/notes", 200],
      ["worker", "http", "-", "GET", "/", 200],
      ["worker", "trigger", "tick", "POST", "/tick", 200],
      ["worker", "trigger", "tick", "POST", "/tick", 200],
      ["worker", "trigger", "upload", "POST", "/upload", 200],
    ]);
    expect(records.filter((r) => r.trigger !== undefined).map((r) => r.trigger?.data)).toEqual([{ scheduled_at: "2026-11-26T10:01:00Z" }, { scheduled_at: "2026-11-26T10:02:00Z" }, { bucket_name: "uploads", object_key: "in/report.txt" }]);
    expect(logged.map((r) => r.id)).toEqual(records.map((r) => r.id));
  });

  it.skipIf(SKIP_BROWSER)("loads a function URL in Chromium and shows its response", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const response = await page.goto(urls.worker ?? "");
      expect(response?.status()).toBe(200);
      expect(await page.textContent("body")).toBe("worker");
      const api = await page.goto(`${urls.api}from-chromium?x=1`);
      expect(((await api?.json()) as { path: string } | undefined)?.path).toBe("/from-chromium");
    } finally {
      await browser.close();
    }
  }, 60_000);
});
