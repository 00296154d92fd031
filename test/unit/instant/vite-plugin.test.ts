import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConfigEnv, Plugin, UserConfig } from "vite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import instantPostgresDefault, { instantPostgres } from "../../../src/vite/index.js";

type ConfigHook = (this: unknown, config: UserConfig, env: ConfigEnv) => Promise<void>;
type ResolvedHook = (this: unknown, config: { logger: Record<"info" | "warn" | "error", (text: string) => void> }) => Promise<void>;

function hooks(plugin: Plugin): { config: ConfigHook; configResolved: ResolvedHook } {
  return { config: plugin.config as unknown as ConfigHook, configResolved: plugin.configResolved as unknown as ResolvedHook };
}

const DEV: ConfigEnv = { command: "serve", mode: "development" };
let saved: Record<string, string | undefined>;
/** The claim API the plugin would reach: every request it gets is counted. */
let claimApi: Awaited<ReturnType<typeof fakeApi>>;

beforeEach(async () => {
  saved = { VITEST: process.env.VITEST, SVC_INSTANT_POSTGRES: process.env.SVC_INSTANT_POSTGRES, SVC_CLAIM_API_HOST: process.env.SVC_CLAIM_API_HOST, DATABASE_URL: process.env.DATABASE_URL };
  delete process.env.VITEST;
  delete process.env.SVC_INSTANT_POSTGRES;
  delete process.env.DATABASE_URL;
  claimApi = await fakeApi(500, { code: "unexpected", message: "this test expected no request" });
  process.env.SVC_CLAIM_API_HOST = claimApi.url;
});
afterEach(async () => {
  await claimApi.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function appDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-vite-unit-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("the Vite plugin's decisions", () => {
  it("is the default export and the named export alike", () => {
    expect(instantPostgresDefault).toBe(instantPostgres);
    expect(instantPostgres({ referrer: "app" }).name).toBe("svc-config:instant-postgres");
  });

  it.each([[undefined], [""], ["   "]])("throws at construction when the referrer is %j", (referrer) => {
    expect(() => instantPostgres({ referrer } as { referrer: string })).toThrow(/needs a non-empty referrer/);
  });

  it.each<[string, ConfigEnv, Record<string, string>]>([
    ["a production build", { command: "build", mode: "production" }, {}],
    ["a development-mode build", { command: "build", mode: "development" }, {}],
    ["vite preview", { command: "serve", mode: "production", isPreview: true }, {}],
    ["mode test", { command: "serve", mode: "test" }, {}],
    ["a Vitest run", DEV, { VITEST: "true" }],
    ["SVC_INSTANT_POSTGRES=off", DEV, { SVC_INSTANT_POSTGRES: "off" }],
  ])("does nothing for %s", async (_name, env, vars) => {
    Object.assign(process.env, vars);
    const root = appDir();
    await hooks(instantPostgres({ referrer: "app" })).config({ root }, env);
    expect(claimApi.requests()).toBe(0);
  });

  it.each([
    [".env", "DATABASE_URL=postgres://already\n"],
    [".env.local", "export DATABASE_URL=\n"],
    [".env.development", "DATABASE_URL=x\n"],
    [".env.development.local", "DATABASE_URL=x\n"],
  ])("does nothing when the key is already in %s", async (file, text) => {
    const root = appDir({ [file]: text });
    await hooks(instantPostgres({ referrer: "app" })).config({ root }, DEV);
    expect(claimApi.requests()).toBe(0);
  });

  it("matches the key exactly: a longer name with the key as prefix does not count", async () => {
    const root = appDir({ ".env": "DATABASE_URL_OLD=x\n" });
    const server = await fakeApi(400, { code: "missing_referrer", message: "Missing referrer" });
    process.env.SVC_CLAIM_API_HOST = server.url;
    await hooks(instantPostgres({ referrer: "app" })).config({ root }, DEV);
    expect(server.requests()).toBe(1);
    await server.close();
  });

  it("stops the dev server when Vite's envPrefix would expose the connection string", async () => {
    const plugin = hooks(instantPostgres({ referrer: "app", dotEnvKey: "VITE_DATABASE_URL" }));
    await expect(plugin.config({ root: appDir() }, DEV)).rejects.toThrow(/envPrefix "VITE_" would expose VITE_DATABASE_URL/);
    const empty = hooks(instantPostgres({ referrer: "app" }));
    await expect(empty.config({ root: appDir(), envPrefix: ["VITE_", "DATA"] }, DEV)).rejects.toThrow(/envPrefix "DATA" would expose DATABASE_URL/);
  });

  it("logs an API failure through Vite's logger and lets the dev server start, once across config reloads", async () => {
    const root = appDir();
    const server = await fakeApi(400, { code: "missing_referrer", message: "Missing referrer", hint: "send a ref", request_id: "rid-1" });
    process.env.SVC_CLAIM_API_HOST = server.url;
    const lines: string[] = [];
    const logger = { info: (t: string) => lines.push(`info ${t}`), warn: (t: string) => lines.push(`warn ${t}`), error: (t: string) => lines.push(`error ${t}`) };
    const first = hooks(instantPostgres({ referrer: "app" }));
    await first.config({ root }, DEV);
    await first.configResolved({ logger });
    const reload = hooks(instantPostgres({ referrer: "app" }));
    await reload.config({ root }, DEV);
    expect(server.requests()).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error \[svc-config\] could not create a claimable Postgres database: PLATFORM_INSTANT_API_ERROR: .*Missing referrer.* The dev server runs without one\.$/);
    expect(() => readFileSync(join(root, ".env"))).toThrow();
    await server.close();
  });
});

/** A tiny claim API that answers every request with one status and body, counting requests. */
async function fakeApi(status: number, body: unknown): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    count++;
    req.resume();
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, requests: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
