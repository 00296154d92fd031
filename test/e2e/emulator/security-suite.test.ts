import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBodySchema } from "../../../src/api/wire/index.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { client, deploy, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED } from "./helpers.js";

const ALICE = "/projects/alice-app-100001";
const ALICE_BRANCH = `${ALICE}/branches/br-alice-main-100001`;

/** A ZIP whose single unsafe entry keeps its raw name (or is a symlink). */
async function unsafeZip(name: string, symlink = false): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("index.mjs", "export default 1");
  zip.file(name, "x", { createFolders: false, ...(symlink ? { unixPermissions: 0o120777 } : {}) });
  return zip.generateAsync({ type: "uint8array", platform: "UNIX" });
}

describe("security suite: each attack gets its status and error body, and the server keeps serving", () => {
  let emu: RunningEmulator;
  let revokedKey: string;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, limits: { jsonBodyBytes: 4096, multipartBodyBytes: 64 * 1024, zipBytes: 16 * 1024, objectBytes: 1024 } });
    const created = await client(emu, KEYS.alice).call<{ id: number; key: string }>("POST", "/api_keys", { key_name: "to-revoke" });
    revokedKey = created.body.key;
    await client(emu, KEYS.alice).call("DELETE", `/api_keys/${created.body.id}`);
  });
  afterAll(() => emu.close());

  async function expectStillServing(): Promise<void> {
    expect((await client(emu, KEYS.alice).call("GET", ALICE)).status).toBe(200);
  }

  it.each([
    ["no key", null],
    ["an invalid key", "svcemu_made_up_key_000000000000000000000000000"],
    ["a revoked key", "revoked"],
  ])("answers 401 unauthorized for %s, with the same message", async (_case, key) => {
    const res = await client(emu, key === "revoked" ? revokedKey : key).call<{ code: string; message: string; request_id: string }>("GET", ALICE);
    expect(res.status).toBe(401);
    expect(ErrorBodySchema.parse(res.body)).toMatchObject({ code: "unauthorized" });
    expect(res.body.message).toBe("authentication required: send Authorization: Bearer <API key> with a valid, unrevoked key");
    expect(res.body.request_id).toBeDefined();
    await expectStillServing();
  });

  it.each([
    ["DELETE", ALICE, undefined],
    ["POST", `${ALICE}/recover`, undefined],
    ["GET", `${ALICE}/members`, undefined],
    ["GET", `${ALICE}/permissions`, undefined],
    ["POST", `${ALICE}/permissions`, { email: "bob@example.test" }],
    ["GET", `${ALICE}/advisors`, undefined],
    ["GET", `${ALICE_BRANCH}/buckets/uploads/objects/a.txt/download`, undefined],
    ["DELETE", `${ALICE_BRANCH}/buckets/uploads/objects/a.txt`, undefined],
    ["DELETE", `${ALICE_BRANCH}/buckets/uploads/objects-by-prefix?prefix=docs/`, undefined],
    ["POST", `${ALICE_BRANCH}/buckets/uploads/objects/a.txt/presign`, { operation: "download" }],
    ["GET", `${ALICE}/auth/integrations`, undefined],
    ["POST", "/projects/auth/create", { auth_provider: "stack", project_id: "alice-app-100001", branch_id: "br-alice-main-100001" }],
    ["POST", "/projects/auth/user", { auth_provider: "stack", project_id: "alice-app-100001", email: "x@example.test" }],
  ])("hides another account's project: %s %s answers 404 to bob", async (method, path, body) => {
    const res = await client(emu, KEYS.bob).call<{ code: string; message: string }>(method, path, body);
    expect(res.status).toBe(404);
    expect(ErrorBodySchema.parse(res.body).code).toBe("not_found");
    expect(res.body.message).not.toContain("alice@example.test");
    await expectStillServing();
  });

  it("answers 413 to a JSON body over the limit", async () => {
    const res = await client(emu, KEYS.alice).call<{ code: string }>("PATCH", ALICE, { project: { name: "x".repeat(8192) } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
    await expectStillServing();
  });

  it.each([
    ["over the limit: 413", "x".repeat(8192), 413, "payload_too_large"],
    ["within the limit: read whole", "alice-chunked", 200, undefined],
  ])("counts a JSON body sent without a Content-Length (chunked) as it streams, %s", async (_case, name, status, code) => {
    const text = JSON.stringify({ project: { name } });
    const chunks = [text.slice(0, 10), text.slice(10)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const res = await fetch(`${emu.apiHost}${ALICE}`, { method: "PATCH", headers: { authorization: `Bearer ${KEYS.alice}`, "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
    const answer = (await res.json()) as { code?: string; project?: { name: string } };
    expect(res.status).toBe(status);
    if (code !== undefined) expect(answer.code).toBe(code);
    else expect(answer.project?.name).toBe(name);
    await expectStillServing();
  });

  it("answers 413 to a multipart deployment over the limit", async () => {
    const res = await deploy(emu, `${ALICE_BRANCH}/functions/huge/deployments`, { zip: new Uint8Array(128 * 1024) }, KEYS.alice);
    expect(res.status).toBe(413);
    expect(res.body["code"]).toBe("payload_too_large");
    await expectStillServing();
  });

  it("answers 413 to a presigned object upload over the limit", async () => {
    const presign = await client(emu, KEYS.alice).call<{ url: string }>("POST", `${ALICE_BRANCH}/buckets/uploads/objects/big.bin/presign`, { operation: "upload" });
    const res = await fetch(presign.body.url, { method: "PUT", body: new Uint8Array(4096) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("payload_too_large");
    await expectStillServing();
  });

  it.each([
    ["a parent-directory entry", "../evil.js", false],
    ["an absolute entry", "/etc/passwd", false],
    ["a backslash entry", "dir\\evil.js", false],
    ["a drive-letter entry", "C:/evil.js", false],
    ["a symlink entry", "link.js", true],
  ])("answers 422 unsafe_archive_entry naming %s, storing nothing", async (_case, name, symlink) => {
    const res = await deploy(emu, `${ALICE_BRANCH}/functions/slip/deployments`, { zip: await unsafeZip(name, symlink), runtime: "nodejs24" }, KEYS.alice);
    expect(res.status).toBe(422);
    expect(res.body["code"]).toBe("unsafe_archive_entry");
    expect(String(res.body["message"])).toContain(name);
    expect((await client(emu, KEYS.alice).call("GET", `${ALICE_BRANCH}/functions/slip`)).status).toBe(404);
    await expectStillServing();
  });

  it.each([
    ["malformed JSON", "{\"project\": {", "application/json", 400, "invalid_request"],
    ["a JSON array", "[1, 2]", "application/json", 400, "invalid_request"],
    ["a wrong field type", JSON.stringify({ project: { name: 42 } }), "application/json", 400, "invalid_request"],
    ["a non-JSON content type", "name=x", "application/x-www-form-urlencoded", 415, "unsupported_media_type"],
  ])("answers %s with %i %s", async (_case, body, contentType, status, code) => {
    const res = await client(emu, KEYS.alice).call<{ code: string; request_id: string }>("PATCH", ALICE, body, { "content-type": contentType });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.request_id).toBeDefined();
    await expectStillServing();
  });

  it("answers malformed JSON on a legacy route with 400 and the deprecation headers", async () => {
    const res = await client(emu, KEYS.alice).call<{ code: string }>("POST", `${ALICE}/auth/domains`, "{oops", { "content-type": "application/json" });
    expect(res.status).toBe(400);
    expect(res.headers.get("deprecation")).toBe("@1772323200");
    await expectStillServing();
  });
});
