import { fileURLToPath } from "node:url";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFunctionArchive, type FunctionArchive } from "../../../src/bundle/archive.js";
import type { ResolvedFunctionConfig } from "../../../src/model/desired-state.js";
import { BundleError } from "../../../src/errors/index.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timings: { deployPendingMs: 5, deployBuildMs: 10 } });
});
afterAll(async () => emu.close());

function fixture(name: string, overrides: Partial<ResolvedFunctionConfig> = {}): ResolvedFunctionConfig {
  const dir = fileURLToPath(new URL(`../../../fixtures/functions/${name}`, import.meta.url));
  return {
    slug: name.replace(/[^a-z0-9]/g, ""),
    name,
    sourcePath: dir,
    source: dir,
    env: {},
    runtime: "nodejs24",
    bundler: "esbuild",
    sourcemap: false,
    customDomains: [],
    ...overrides,
  };
}

/** Uploads ZIP bytes as the deployment route's multipart `zip` part. */
async function deploy(slug: string, zip: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.set("zip", new Blob([zip], { type: "application/zip" }), "bundle.zip");
  form.set("runtime", "nodejs24");
  form.set("environment", JSON.stringify({ GREETING: "hi" }));
  const url = `${emu.apiHost}/projects/${emu.projectId}/branches/${emu.defaultBranchId}/functions/${slug}/deployments`;
  return fetch(url, { method: "POST", headers: { authorization: `Bearer ${emu.apiKey}` }, body: form });
}

async function currentDeployment(slug: string): Promise<{ status: string; error?: string }> {
  const url = `${emu.apiHost}/projects/${emu.projectId}/branches/${emu.defaultBranchId}/functions/${slug}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  const body = (await response.json()) as { function: { current_deployment: { status: string; error?: string } } };
  return body.function.current_deployment;
}

describe("archives on the emulator's deployment route", () => {
  it.each([
    ["an esbuild bundle with a source map", () => fixture("ts-npm", { sourcemap: true })],
    ["a prebuilt directory", () => fixture("prebuilt", { bundler: "none" })],
  ])("accepts %s, builds it and stores exactly its bytes", async (_label, fn) => {
    const archive: FunctionArchive = await buildFunctionArchive(fn());
    const response = await deploy(archive.slug, archive.zip);
    expect(response.status).toBe(201);
    await emu.settle({ timeoutMs: 5_000 });
    expect(await currentDeployment(archive.slug)).toMatchObject({ status: "completed" });
    expect(JSON.stringify(emu.state.snapshot())).toContain(`"zip_sha256":"${archive.zipSha256}"`);
  });

  it("refuses a zip-slip entry on both sides: the bundler before upload, the route with 422", async () => {
    const zip = new JSZip();
    zip.file("index.mjs", "export default 1;");
    zip.file("../escape.js", "evil", { createFolders: false });
    const bytes = await zip.generateAsync({ type: "uint8array" });

    const bundled = await buildFunctionArchive(fixture("dir-entry"), { bundleFunction: async () => bytes }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(bundled).toBeInstanceOf(BundleError);
    expect((bundled as BundleError).message).toContain('"../escape.js"');

    const response = await deploy("slip", bytes);
    expect(response.status).toBe(422);
    expect(await response.text()).toContain("unsafe_archive_entry");
  });
});
