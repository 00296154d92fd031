/** Helpers of the tests of functions running in the emulator: deploy a module, call it, watch its process. */
import { expect } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { InvocationRecord } from "../../../src/emulator/functions/invocation-log.js";
import { client, deploy, zipOf } from "./helpers.js";

/** The branch path of the emulator's default branch (or `branchId`). */
export function branchPath(emu: RunningEmulator, branchId = emu.defaultBranchId): string {
  return `/projects/${emu.projectId}/branches/${branchId}`;
}

/** Deploys `source` as the function's `index.mjs` and waits for the build; returns its invocation URL. */
export async function deployModule(emu: RunningEmulator, slug: string, source: string, options: { environment?: Record<string, string>; branchId?: string } = {}): Promise<string> {
  const path = `${branchPath(emu, options.branchId)}/functions/${slug}`;
  const res = await deploy(emu, `${path}/deployments`, { zip: await zipOf({ "index.mjs": source }), runtime: "nodejs24", ...(options.environment !== undefined ? { environment: options.environment } : {}) });
  expect(res.status).toBe(201);
  await emu.settle();
  const fn = await client(emu).call<{ function: { invocation_url: string } }>("GET", path);
  expect(fn.body.function.invocation_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  return fn.body.function.invocation_url;
}

/** `GET /__emulator/invocations` (optionally of one function). */
export async function invocations(emu: RunningEmulator, slug?: string): Promise<InvocationRecord[]> {
  const res = await fetch(`${emu.url}/__emulator/invocations${slug !== undefined ? `?function=${slug}` : ""}`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { invocations: InvocationRecord[] }).invocations;
}
