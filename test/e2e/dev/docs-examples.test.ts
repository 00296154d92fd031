/**
 * Every function example of docs/dev.md, as written: bundled on svc dev's path (the package
 * resolved as a user's project resolves it), served by the function host, called over HTTP,
 * including the Hono and the plain trigger handlers with the envelope the emulator sends.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevFiles } from "../../../src/bundle/archive.js";
import { startFunctionProcess, type FunctionProcess } from "../../../src/runtime/index.js";
import { triggerInvocationRequest } from "../../../src/rules/trigger-invocation.js";
import { ensureBuilt, ROOT } from "../cli/harness.js";
import { devProject, type DevProject } from "./dev-harness.js";

const DOC = readFileSync(join(ROOT, "docs", "dev.md"), "utf8");
const EXAMPLES = new Map([...DOC.matchAll(/```ts\n\/\/ functions\/(\w+)\/index\.ts[^\n]*\n([\s\S]*?)```/g)].map((m) => [m[1] ?? "", m[2] ?? ""]));

let project: DevProject;
const running = new Map<string, FunctionProcess>();

beforeAll(async () => {
  await ensureBuilt();
  project = devProject(Object.fromEntries([...EXAMPLES].map(([name, code]) => [`functions/${name}/index.ts`, code])));
  for (const name of EXAMPLES.keys()) {
    const source = join(project.dir, "functions", name, "index.ts");
    const built = await buildDevFiles(
      { slug: name, name, sourcePath: join(project.dir, "functions", name), source, env: {}, runtime: "nodejs24", bundler: "esbuild", sourcemap: false, customDomains: [] },
      { workingDir: project.dir },
    );
    project.write(`out/${name}/index.mjs`, new TextDecoder().decode(built.files.get("index.mjs")));
    running.set(name, await startFunctionProcess({ entry: join(project.dir, "out", name, "index.mjs") }));
  }
}, 120_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((p) => p.stop(100)));
  project?.remove();
});

function url(name: string, path: string): string {
  const fn = running.get(name);
  if (fn === undefined) throw new Error(`docs/dev.md has no example functions/${name}/index.ts`);
  return `${fn.url}${path}`;
}

function invocation(name: string, path: string, trigger: "schedule" | "storage_object_created"): RequestInit & { url: string } {
  const data = trigger === "schedule" ? { scheduled_at: "2026-11-26T10:00:00Z" } : { bucket_name: "media", object_key: "in/cat.png" };
  const req = triggerInvocationRequest({ functionUrl: url(name, ""), functionPath: path, invocationId: "inv-42", trigger: { type: trigger, id: "trigger-1", name: "t" }, data });
  return { url: req.url, method: "POST", headers: req.headers, body: req.body };
}

describe("docs/dev.md's function examples", () => {
  it("has the four examples", () => {
    expect([...EXAMPLES.keys()].sort()).toEqual(["api", "hello", "jobs", "uploads"]);
  });

  it("the plain function and the Hono app answer", async () => {
    expect(await (await fetch(url("hello", "/?name=ada"))).text()).toBe("hello ada");
    expect(await (await fetch(url("api", "/"))).json()).toEqual({ ok: true });
  });

  it("the Hono trigger handler reads a schedule delivery and refuses an ordinary request", async () => {
    const { url: target, ...init } = invocation("jobs", "/cron", "schedule");
    expect(await (await fetch(target, init)).json()).toEqual({ ranFor: "2026-11-26T10:00:00Z", invocation: "inv-42" });
    const plain = await fetch(url("jobs", "/cron"), { method: "POST", body: "{}" });
    expect(plain.status).toBe(400);
    expect(await plain.text()).toContain("x-svc-trigger-invocation-id header is missing");
  });

  it("the plain trigger handler reads a storage delivery and refuses a mismatched id", async () => {
    const { url: target, ...init } = invocation("uploads", "/", "storage_object_created");
    expect(await (await fetch(target, init)).json()).toEqual({ received: "media/in/cat.png" });
    const mismatched = await fetch(target, { ...init, headers: { ...(init.headers as Record<string, string>), "x-svc-trigger-invocation-id": "other" } });
    expect(mismatched.status).toBe(400);
  });
});
