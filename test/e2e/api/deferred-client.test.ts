/**
 * `createPlatformApi` as `svc-config/v1` exports it (the client's modules load with its first call):
 * the same methods as the client it defers to, the same option errors thrown at once, and calls
 * answered by the emulator over real HTTP as the client answers them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApi as createClient } from "../../../src/api/create-platform-api.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createPlatformApi } from "../../../src/v1.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => emu.close());

describe("svc-config/v1's createPlatformApi", () => {
  it("has every method of the client, the optional compareSchema included", () => {
    const options = { apiKey: "k", apiHost: "http://127.0.0.1:1/api/v2" };
    expect(Object.keys(createPlatformApi(options)).sort()).toEqual(Object.keys(createClient(options)).sort());
  });

  it.each([
    ["an empty apiKey", { apiKey: "" }, "PLATFORM_MISSING_API_KEY"],
    ["a malformed apiHost", { apiKey: "k", apiHost: "not a url" }, "PLATFORM_INVALID_OPTIONS"],
  ])("throws at once on %s, as the client does", (_name, options, code) => {
    expect(() => createPlatformApi(options)).toThrow(expect.objectContaining({ code }));
    expect(() => createClient(options)).toThrow(expect.objectContaining({ code }));
  });

  it("answers calls from the platform as the client does, and fails them the same way", async () => {
    const deferred = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const client = createClient({ apiKey: emu.apiKey, apiHost: emu.apiHost });
    const [project, branches] = await Promise.all([deferred.getProject({ projectId: emu.projectId }), deferred.listBranches({ projectId: emu.projectId })]);
    expect(project).toEqual(await client.getProject({ projectId: emu.projectId }));
    expect(branches).toEqual(await client.listBranches({ projectId: emu.projectId }));
    const missing = { projectId: emu.projectId, branchId: "br-no-such-branch" };
    const failure = (err: { constructor: { name: string }; code: string; status: number; message: string }) => ({ error: err.constructor.name, code: err.code, status: err.status, message: err.message.replace(/request id [\w-]+/, "request id …") });
    const [ours, theirs] = await Promise.all([deferred.getBranch(missing).catch(failure), client.getBranch(missing).catch(failure)]);
    expect(ours).toEqual(expect.objectContaining({ error: "ApiError", status: 404 }));
    // The same failure, but for the id of each request, which the message names.
    expect(ours).toEqual(theirs);
  });
});
