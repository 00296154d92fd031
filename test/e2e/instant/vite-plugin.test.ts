import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "dotenv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { childEnv, ensureBuilt, ROOT, runProcess } from "../cli/harness.js";
import type { ConfigEnv, Plugin, UserConfig } from "vite";
import { instantPostgres } from "../../../src/vite/index.js";
import { query } from "./harness.js";

const VITE_BIN = join(ROOT, "node_modules", "vite", "bin", "vite.js");
let emu: RunningEmulator;

beforeAll(async () => {
  await ensureBuilt();
  emu = await startEmulator({ clock: "manual" });
}, 240_000);
afterAll(async () => {
  await emu?.close();
});

/** A copy of fixtures/instant/vite-app with a config that loads the built plugin (dist/vite). */
function viteApp(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-vite-e2e-"));
  cpSync(join(ROOT, "fixtures", "instant", "vite-app"), dir, { recursive: true });
  cpSync(join(ROOT, "fixtures", "instant", "seed.sql"), join(dir, "seed.sql"));
  const plugin = pathToFileURL(join(ROOT, "dist", "vite", "index.js")).href;
  writeFileSync(
    join(dir, "vite.config.mjs"),
    `import instantPostgres from ${JSON.stringify(plugin)};\nexport default { plugins: [instantPostgres({ referrer: "vite-e2e", seed: { type: "sql-script", path: "seed.sql" } })], server: { host: "127.0.0.1", port: 0 } };\n`,
  );
  return dir;
}

/** Starts `vite` (the dev server) and resolves with its local URL once it listens. */
function startDevServer(dir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [VITE_BIN, "--configLoader", "native"], { cwd: dir, env: childEnv({ SVC_CLAIM_API_HOST: emu.claimApiHost, NO_COLOR: "1" }), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const url = /Local:\s+(http:\/\/\S+?)\/?\s/.exec(output)?.[1];
      if (url !== undefined) resolve({ child, url, output: () => output });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`vite exited with ${String(code)} before listening:\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("the Vite plugin (svc-config/vite)", () => {
  it("provisions and seeds on the first dev start, and client code sees only the claim URL", async () => {
    const dir = viteApp();
    const server = await startDevServer(dir);
    try {
      const values = parse(readFileSync(join(dir, ".env"), "utf8"));
      expect(Object.keys(values)).toEqual(["DATABASE_URL", "DATABASE_URL_DIRECT", "VITE_POSTGRES_CLAIM_URL"]);
      expect(server.output()).toContain("[svc-config] Created a claimable Postgres database; wrote DATABASE_URL (pooled), DATABASE_URL_DIRECT (direct) and VITE_POSTGRES_CLAIM_URL to .env.");
      expect(server.output()).toContain(`unless claimed: ${values["VITE_POSTGRES_CLAIM_URL"]}`);
      expect(server.output()).not.toContain("postgresql://");
      expect(await query(values["DATABASE_URL"] ?? "", "SELECT count(*)::int AS n FROM todos")).toEqual([{ n: 2 }]);

      const client = await (await fetch(`${server.url}/main.js`)).text();
      expect(client).toContain(values["VITE_POSTGRES_CLAIM_URL"]);
      expect(client).not.toContain("postgresql://");
      expect(client).not.toContain("DATABASE_URL");
    } finally {
      await stop(server.child);
    }

    const again = await startDevServer(dir);
    await stop(again.child);
    expect(again.output()).not.toContain("[svc-config]");
    expect(readFileSync(join(dir, ".env"), "utf8").match(/^DATABASE_URL=/gm)).toHaveLength(1);
  }, 60_000);

  it("does not provision for a production build", async () => {
    const dir = viteApp();
    const build = await runProcess(process.execPath, [VITE_BIN, "build", "--configLoader", "native"], { cwd: dir, env: { SVC_CLAIM_API_HOST: emu.claimApiHost, NO_COLOR: "1" } });
    expect(build.code).toBe(0);
    expect(existsSync(join(dir, ".env"))).toBe(false);
    expect(build.stdout + build.stderr).not.toContain("[svc-config]");
    expect(readFileSync(join(dir, "dist", "index.html"), "utf8")).toContain("<script");
  }, 60_000);

  it("in-process: sets the three variables where unset, logs without secrets, and a config reload creates nothing more", async () => {
    const root = mkdtempSync(join(tmpdir(), "svc-vite-inproc-"));
    const names = ["DATABASE_URL", "DATABASE_URL_DIRECT", "VITE_POSTGRES_CLAIM_URL", "VITEST", "SVC_CLAIM_API_HOST"] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) delete process.env[n];
    process.env.SVC_CLAIM_API_HOST = emu.claimApiHost;
    const lines: string[] = [];
    const logger = { info: (t: string) => lines.push(t), warn: (t: string) => lines.push(t), error: (t: string) => lines.push(t) };
    type Hooks = { config: (this: unknown, c: UserConfig, e: ConfigEnv) => Promise<void>; configResolved: (this: unknown, c: { logger: typeof logger }) => Promise<void> };
    const hooksOf = (plugin: Plugin): Hooks => ({ config: plugin.config as unknown as Hooks["config"], configResolved: plugin.configResolved as unknown as Hooks["configResolved"] });
    try {
      const first = hooksOf(instantPostgres({ referrer: "vite-inproc" }));
      await first.config({ root }, { command: "serve", mode: "development" });
      await first.configResolved({ logger });
      const values = parse(readFileSync(join(root, ".env"), "utf8"));
      expect(process.env.DATABASE_URL).toBe(values["DATABASE_URL"]);
      expect(process.env.DATABASE_URL_DIRECT).toBe(values["DATABASE_URL_DIRECT"]);
      expect(process.env.VITE_POSTGRES_CLAIM_URL).toBe(values["VITE_POSTGRES_CLAIM_URL"]);
      expect(lines.join("\n")).not.toContain("postgresql://");
      expect(lines[1]).toContain(`unless claimed: ${values["VITE_POSTGRES_CLAIM_URL"]}`);

      delete process.env.DATABASE_URL;
      const reload = hooksOf(instantPostgres({ referrer: "vite-inproc" }));
      await reload.config({ root }, { command: "serve", mode: "development" });
      expect(readFileSync(join(root, ".env"), "utf8").match(/^DATABASE_URL=/gm)).toHaveLength(1);
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
  });
});
