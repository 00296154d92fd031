import { connect } from "node:net";
import { crc32, deflateRawSync } from "node:zlib";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBodySchema } from "../../../src/api/wire/index.js";
import { zipContainer } from "../../../src/bundle/zip-container.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createReplica, type Replica } from "../../../src/emulator/replica.js";
import { client, deploy, KEYS, startTestEmulator, TWO_ACCOUNTS_SEED } from "./helpers.js";
import { rawZip, unicodePathExtra } from "../../helpers/raw-zip.js";

const ALICE = "/projects/alice-app-100001";
const ALICE_BRANCH = `${ALICE}/branches/br-alice-main-100001`;

/** A ZIP whose single unsafe entry keeps its raw name (or is a symlink). */
async function unsafeZip(name: string, symlink = false): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("index.mjs", "export default 1");
  zip.file(name, "x", { createFolders: false, ...(symlink ? { unixPermissions: 0o120777 } : {}) });
  return zip.generateAsync({ type: "uint8array", platform: "UNIX" });
}

// Deployment bodies and archives aimed at the emulator's own readings (the plain multipart form,
// the plain archive) and at what is left to undici and jszip. Each row's status, message and
// resulting state are those of the emulator before those readings existed (9e0365c), but for an
// entry inflating past the unzipped limit, which answered 201 with a failed build after inflating
// it whole and now answers 413 once the limit is passed, and for what the archive's own directory
// shows (an entry with two names, a name given twice, a directory named with `..`, an invisible
// character): those answered 201 and are now 422 naming the entry. A build error is in our words,
// never jszip's.
const BOUNDARY = "svcHostileBoundary0123456789abcdef";
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const INDEX = "export default () => new Response('ok')\n";
const MiB = 1024 * 1024;
/** The 400 for a body no parser reads: the rule it breaks, in the emulator's words (never the parser's own text). */
const unreadable = (reason: string): string => `the multipart body cannot be read (${reason}); send multipart/form-data with parts zip, runtime, environment`;
const PART_MALFORMED = (n: number): string => unreadable(`part ${n} is malformed: a part needs a Content-Disposition: form-data; name="…" header and a blank line before its content`);
const SIZE_MISMATCH = 'archive is not a valid ZIP file: entry "index.mjs" cannot be decompressed: its data is damaged or is not the size its headers declare';
const NO_ROOT = "no index.mjs or index.js at the archive root";
const INVISIBLE = "the path contains a zero-width, bidirectional-override or line-separator character (a name that reads as another)";

/** A ZIP of deflated files as the bundler lays it out; `size` may lie about what `data` inflates to. */
function archive(entries: { name: string; data: string | Uint8Array; size?: number }[]): Buffer {
  const deflated = entries.map(({ name, data, size }) => {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    return { name, crc32: crc32(bytes), size: size ?? bytes.byteLength, deflated: deflateRawSync(bytes) };
  });
  return Buffer.from(zipContainer(deflated, { date: new Date(Date.UTC(1980, 0, 1)), permissions: 0o644 }));
}

/** Offsets of the central directory records of an archive written by {@link archive}. */
function centralRecords(zip: Buffer): number[] {
  const end = zip.length - 22;
  const records: number[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    records.push(at);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return records;
}

/** The archive with entry `index`'s local header naming `name` (same length) while the central record keeps its own. */
function withLocalName(zip: Buffer, index: number, name: string): Buffer {
  const local = zip.readUInt32LE((centralRecords(zip)[index] ?? 0) + 42);
  Buffer.from(name).copy(zip, local + 30);
  return zip;
}

/** The archive with its second central record pointing at the first entry's local header. */
function sharingLocalHeader(zip: Buffer): Buffer {
  const [first = 0, second = 0] = centralRecords(zip);
  zip.writeUInt32LE(zip.readUInt32LE(first + 42), second + 42);
  return zip;
}

/** A multipart part in the plain form; `headers` replaces the Content-Disposition line. */
function part(name: string, content: string | Uint8Array, options: { filename?: string; headers?: string[] } = {}): Buffer {
  const headers = options.headers ?? [`Content-Disposition: form-data; name="${name}"${options.filename === undefined ? "" : `; filename="${options.filename}"`}`];
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${headers.join("\r\n")}\r\n\r\n`, "latin1"), Buffer.from(content), Buffer.from("\r\n")]);
}

const zipPart = (zip: Uint8Array): Buffer => part("zip", zip, { filename: "bundle.zip" });
const runtimePart = (): Buffer => part("runtime", "nodejs24");
const multipart = (...parts: Buffer[]): Buffer => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
const deployment = (zip: Uint8Array): Buffer => multipart(zipPart(zip), runtimePart());
/** `zip` with `text` inserted after its first ten bytes. */
const splice = (zip: Buffer, text: string): Buffer => Buffer.concat([zip.subarray(0, 10), Buffer.from(text), zip.subarray(10)]);

/** A deployment body of exactly `bytes` bytes: a valid one with a padding part. */
function bodyOfSize(bytes: number): Buffer {
  const parts = [zipPart(archive([{ name: "index.mjs", data: INDEX }])), runtimePart()];
  const padding = bytes - multipart(...parts, part("pad", "")).length;
  return multipart(...parts, part("pad", "p".repeat(padding)));
}

/** An archive of exactly `bytes` bytes: the root entry and a file of incompressible padding. */
function archiveOfSize(bytes: number): Buffer {
  let state = 1;
  const noise = Buffer.alloc(bytes).map(() => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state >>> 24;
  });
  const sized = (n: number): Buffer => archive([{ name: "index.mjs", data: INDEX }, { name: "pad.bin", data: noise.subarray(0, n) }]);
  let n = bytes - sized(1).length;
  while (sized(n).length > bytes) n -= 1;
  while (sized(n).length < bytes) n += 1;
  const zip = sized(n);
  if (zip.length !== bytes) throw new Error(`no archive of exactly ${bytes} bytes`);
  return zip;
}

/** What a row expects: the answer's status and message (or code), and what the branch then holds. */
interface Expected {
  status: number;
  message?: string;
  code?: string;
  /** `absent`: no function; `completed`: deployed; otherwise the failed deployment's error. */
  state: "absent" | "completed" | string;
}

/** Sends `body` byte for byte with `contentLength` (default: its length) and reads the first answer. */
function sendRaw(target: RunningEmulator, path: string, body: Buffer, contentLength = body.length, halfClose = false): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const payload = text.slice(split + 4);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: payload.startsWith("{") ? (JSON.parse(payload) as Record<string, unknown>) : {} });
    });
    const head = [`POST /api/v2${path} HTTP/1.1`, `Host: ${url.host}`, `Authorization: Bearer ${KEYS.alice}`, `Content-Type: ${CONTENT_TYPE}`, `Content-Length: ${contentLength}`, "Connection: close"];
    socket.write(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]));
    if (halfClose) socket.end();
  });
}

const DEPLOYMENT_ROWS: [string, () => Buffer, Expected][] = [
  ["parts named __proto__ and constructor beside zip and runtime", () => multipart(part("__proto__", archive([{ name: "x.js", data: "1" }]), { filename: "x.zip" }), part("constructor", "x"), zipPart(archive([{ name: "index.mjs", data: INDEX }])), runtimePart()), { status: 201, state: "completed" }],
  ["only parts named __proto__ and constructor", () => multipart(part("__proto__", archive([{ name: "index.mjs", data: INDEX }]), { filename: "bundle.zip" }), part("constructor", "nodejs24")), { status: 400, message: "the deployment has no parts; send at least one of zip, runtime, environment", state: "absent" }],
  ["two zip parts, a damaged one last (the last wins)", () => multipart(zipPart(archive([{ name: "index.mjs", data: INDEX }])), zipPart(Buffer.from("not a zip")), runtimePart()), { status: 201, state: "archive is not a valid ZIP file: it has no end of central directory record (is it a ZIP file?)" }],
  ["a runtime part sent as a file", () => multipart(zipPart(archive([{ name: "index.mjs", data: INDEX }])), part("runtime", "nodejs24", { filename: "runtime.txt" })), { status: 400, message: "part runtime must be the text nodejs24, not a file", state: "absent" }],
  ["two runtime parts, an unsupported one last", () => multipart(zipPart(archive([{ name: "index.mjs", data: INDEX }])), runtimePart(), part("runtime", "python3")), { status: 400, message: 'part runtime "python3" is not supported; use nodejs24', state: "absent" }],
  ["LF line endings", () => Buffer.from(`--${BOUNDARY}\nContent-Disposition: form-data; name="runtime"\n\nnodejs24\n--${BOUNDARY}--\n`), { status: 400, message: unreadable("its lines end with LF alone; multipart/form-data needs CRLF line endings"), state: "absent" }],
  ["a body that is not multipart at all", () => Buffer.from("zip=1&runtime=nodejs24"), { status: 400, message: unreadable(`it does not start with the delimiter --${BOUNDARY}`), state: "absent" }],
  ["a body without its closing delimiter", () => Buffer.concat([zipPart(archive([{ name: "index.mjs", data: INDEX }])), runtimePart()]), { status: 400, message: unreadable(`it does not end with the closing delimiter --${BOUNDARY}--`), state: "absent" }],
  ["a second part without a Content-Disposition", () => multipart(zipPart(archive([{ name: "index.mjs", data: INDEX }])), part("runtime", "nodejs24", { headers: ["Content-Type: text/plain"] })), { status: 400, message: PART_MALFORMED(2), state: "absent" }],
  ["a part header line without a colon", () => multipart(zipPart(archive([{ name: "index.mjs", data: INDEX }])), part("runtime", "nodejs24", { headers: ['Content-Disposition: form-data; name="runtime"', "bogus"] })), { status: 400, message: unreadable("a part's headers cannot be read: each is one Name: value line ending in CRLF"), state: "absent" }],
  ["a NUL in the zip part's name", () => multipart(part("zip", archive([{ name: "index.mjs", data: INDEX }]), { headers: ['Content-Disposition: form-data; name="zip\0"; filename="bundle.zip"'] }), runtimePart()), { status: 422, code: "zip_required", state: "absent" }],
  ["the boundary inside the archive's bytes after CRLF--", () => deployment(splice(archive([{ name: "index.mjs", data: INDEX }]), `\r\n--${BOUNDARY}\r\n`)), { status: 400, message: PART_MALFORMED(2), state: "absent" }],
  ["the bare boundary inside the archive's bytes", () => deployment(splice(archive([{ name: "index.mjs", data: INDEX }]), BOUNDARY)), { status: 400, message: unreadable("part 1's content holds the boundary: choose a boundary that no part's content holds"), state: "absent" }],
  ["blank lines before the first delimiter", () => Buffer.concat([Buffer.from("\r\n\r\n"), deployment(archive([{ name: "index.mjs", data: INDEX }]))]), { status: 201, state: "completed" }],
  ["a base64 Content-Transfer-Encoding zip part", () => multipart(part("zip", archive([{ name: "index.mjs", data: INDEX }]).toString("base64"), { headers: ['Content-Disposition: form-data; name="zip"; filename="bundle.zip"', "Content-Transfer-Encoding: base64"] }), runtimePart()), { status: 201, state: "completed" }],
  ["local and central names that differ", () => deployment(withLocalName(archive([{ name: "index.mjs", data: INDEX }]), 0, "other.mjs")), { status: 422, message: 'archive entry "index.mjs" is named "other.mjs" in its local header; an entry must have one name: rebuild the archive', state: "absent" }],
  ["a central name with .. segments over a safe local name (what Info-ZIP and Python would write)", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "lib/evil.mjs", centralName: "../evil.mjs", data: "1" }])), { status: 422, message: 'archive entry "../evil.mjs" is named "lib/evil.mjs" in its local header; an entry must have one name: rebuild the archive', state: "absent" }],
  ["a Unicode Path field naming another path (what jszip would write)", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "lib/a.mjs", flags: 0, centralExtra: unicodePathExtra("lib/a.mjs", "lib/b.mjs"), data: "1" }])), { status: 422, code: "unsafe_archive_entry", state: "absent" }],
  ["one name given twice", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "lib/a.mjs", data: "1" }, { name: "lib/a.mjs", data: "2" }])), { status: 422, message: 'archive entry "lib/a.mjs" appears more than once; each name may appear once: rebuild the archive', state: "absent" }],
  ["twelve records of one name against a limit of 8 entries", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, ...Array.from({ length: 11 }, (_, i) => ({ name: "a.js", data: String(i) }))])), { status: 422, message: 'archive entry "a.js" appears more than once; each name may appear once: rebuild the archive', state: "absent" }],
  ["a directory entry with .. segments (jszip strips them from directory names)", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "../../outside/" }])), { status: 422, message: 'archive entry "../../outside/" is unsafe: the path contains a .. segment; rebuild the archive with relative paths', state: "absent" }],
  ["a directory by its attributes with .. segments", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "../../outside", external: ((0o040755 << 16) | 0x10) >>> 0 }])), { status: 422, code: "unsafe_archive_entry", state: "absent" }],
  ["a bidi override in an entry name", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "lib/\u202egnp.js", data: "1" }])), { status: 422, message: `archive entry "lib/\\u202egnp.js" is unsafe: ${INVISIBLE}; rebuild the archive with relative paths`, state: "absent" }],
  ["a zero-width space in an entry name", () => deployment(rawZip([{ name: "index.mjs", data: INDEX }, { name: "index\u200b.mjs", data: "1" }])), { status: 422, message: `archive entry "index\\u200b.mjs" is unsafe: ${INVISIBLE}; rebuild the archive with relative paths`, state: "absent" }],
  ["a local name with a .. segment under a safe central name", () => deployment(withLocalName(archive([{ name: "index.mjs", data: INDEX }, { name: "lib/a.mjs", data: "1" }]), 1, "../a.mjs")), { status: 422, code: "unsafe_archive_entry", state: "absent" }],
  ["two central records sharing one local header", () => deployment(sharingLocalHeader(archive([{ name: "index.mjs", data: INDEX }, { name: "other.mjs", data: INDEX }]))), { status: 422, message: 'archive entry "other.mjs" is named "index.mjs" in its local header; an entry must have one name: rebuild the archive', state: "absent" }],
  ["a deflated entry declaring 1 MiB that inflates past it", () => deployment(archive([{ name: "index.mjs", data: INDEX.padEnd(MiB + 1), size: MiB }])), { status: 201, state: SIZE_MISMATCH }],
  ["a deflated entry declaring 100 bytes that inflates past the unzipped limit", () => deployment(archive([{ name: "index.mjs", data: INDEX.padEnd(4 * MiB + 1), size: 100 }])), { status: 413, message: "the archive expands to more than 4194304 bytes; bundle less code", state: "absent" }],
  ["a deflated entry declaring less than it holds", () => deployment(archive([{ name: "index.mjs", data: INDEX, size: 3 }])), { status: 201, state: SIZE_MISMATCH }],
  ["an entry of exactly 1 MiB", () => deployment(archive([{ name: "index.mjs", data: INDEX.padEnd(MiB) }])), { status: 201, state: "completed" }],
  ["an entry of 1 MiB and a byte (read by jszip)", () => deployment(archive([{ name: "index.mjs", data: INDEX.padEnd(MiB + 1) }])), { status: 201, state: "completed" }],
  ["a lookalike root entry (Cyrillic і)", () => deployment(archive([{ name: "\u0456ndex.mjs", data: INDEX }])), { status: 201, state: NO_ROOT }],
  ["an entry with a NUL in its name", () => deployment(archive([{ name: "index.mjs", data: INDEX }, { name: "a\0.js", data: "1" }])), { status: 422, message: 'archive entry "a\\u0000.js" is unsafe: the path contains a control character; rebuild the archive with relative paths', state: "absent" }],
  ["an entry named __proto__", () => deployment(archive([{ name: "index.mjs", data: INDEX }, { name: "__proto__", data: "1" }])), { status: 201, state: "completed" }],
  ["entries at the limit", () => deployment(archive([{ name: "index.mjs", data: INDEX }, ...Array.from({ length: 7 }, (_, i) => ({ name: `f${i}.js`, data: "1" }))])), { status: 201, state: "completed" }],
  ["entries one over the limit", () => deployment(archive([{ name: "index.mjs", data: INDEX }, ...Array.from({ length: 8 }, (_, i) => ({ name: `f${i}.js`, data: "1" }))])), { status: 413, message: "the archive has 9 entries (limit 8); bundle into fewer files", state: "absent" }],
  ["an archive of exactly the archive limit", () => deployment(archiveOfSize(16 * 1024)), { status: 201, state: "completed" }],
  ["an archive a byte over the archive limit", () => deployment(archiveOfSize(16 * 1024 + 1)), { status: 413, message: "the archive is 16385 bytes (limit 16384); bundle less code", state: "absent" }],
  ["a body of exactly the multipart limit", () => bodyOfSize(64 * 1024), { status: 201, state: "completed" }],
  ["a body a byte over the multipart limit", () => bodyOfSize(64 * 1024 + 1), { status: 413, message: "the multipart body exceeds 65536 bytes; the archive must be at most 16384 bytes", state: "absent" }],
];

describe("security suite: each attack gets its status and error body, and the server keeps serving", () => {
  let emu: RunningEmulator;
  let revokedKey: string;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: TWO_ACCOUNTS_SEED, limits: { jsonBodyBytes: 4096, multipartBodyBytes: 64 * 1024, zipBytes: 16 * 1024, zipEntries: 8, unzippedBytes: 4 * MiB, objectBytes: 1024 } });
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

  describe("hostile deployment bodies and archives", () => {
  let replica: Replica;
  let replicaBranch: string;
  const REPLICA_KEY = "svcemu_hostile_replica_key_0000000000000000";
  beforeAll(async () => {
    replica = createReplica({ apiKey: REPLICA_KEY, timings: { deployBuildMs: 0, deployPendingMs: 0 } });
    const branches = await replica.fetch(`${replica.apiHost}/projects/${replica.projectId}/branches`, { headers: { authorization: `Bearer ${REPLICA_KEY}` } });
    replicaBranch = `/projects/${replica.projectId}/branches/${((await branches.json()) as { branches: { id: string }[] }).branches[0]?.id ?? ""}`;
  });
  let slugs = 0;
  const nextSlug = (): string => `hostile${++slugs}`;

  it.each(DEPLOYMENT_ROWS)("answers %s, over a socket", async (_case, body, expected) => {
    const slug = nextSlug();
    const res = await sendRaw(emu, `${ALICE_BRANCH}/functions/${slug}/deployments`, body());
    expect(res.status).toBe(expected.status);
    if (expected.message !== undefined) expect(res.body["message"]).toBe(expected.message);
    if (expected.code !== undefined) expect(res.body["code"]).toBe(expected.code);
    await emu.settle();
    const fn = await client(emu, KEYS.alice).call<{ function?: { current_deployment: { status: string; error?: string } } }>("GET", `${ALICE_BRANCH}/functions/${slug}`);
    if (expected.state === "absent") expect(fn.status).toBe(404);
    else if (expected.state === "completed") expect(fn.body.function?.current_deployment).toMatchObject({ status: "completed" });
    else expect(fn.body.function?.current_deployment).toMatchObject({ status: "failed", error: expected.state });
    expect((await client(emu, KEYS.alice).call("GET", ALICE)).status).toBe(200);
  });

  it.each(DEPLOYMENT_ROWS.filter(([, , expected]) => expected.status !== 413))("answers %s on a replica as on a socket, by fetch and by send", async (_case, body, expected) => {
    const headers = { authorization: `Bearer ${REPLICA_KEY}`, "content-type": CONTENT_TYPE };
    for (const via of ["fetch", "send"] as const) {
      const slug = nextSlug();
      const url = `${replica.apiHost}${replicaBranch}/functions/${slug}/deployments`;
      const bytes = new Uint8Array(body());
      const answer = via === "fetch" ? await replica.fetch(url, { method: "POST", headers, body: bytes }).then(async (r) => ({ status: r.status, text: await r.text() })) : await replica.send({ method: "POST", url, headers, body: bytes });
      const parsed = JSON.parse(answer.text) as Record<string, unknown>;
      expect([via, answer.status]).toEqual([via, expected.status]);
      if (expected.message !== undefined) expect(parsed["message"]).toBe(expected.message);
      if (expected.code !== undefined) expect(parsed["code"]).toBe(expected.code);
      const fn = await replica.fetch(`${replica.apiHost}${replicaBranch}/functions/${slug}`, { headers });
      expect(fn.status).toBe(expected.state === "absent" ? 404 : 200);
    }
  });

  it.each([
    ["shorter than the body", -40, false],
    ["longer than the body, the client then closing its side", 40, true],
  ])("answers 400 to a Content-Length %s, deploying nothing", async (_case, delta, halfClose) => {
    const slug = nextSlug();
    const body = deployment(archive([{ name: "index.mjs", data: INDEX }]));
    const res = await sendRaw(emu, `${ALICE_BRANCH}/functions/${slug}/deployments`, body, body.length + delta, halfClose);
    expect(res.status).toBe(400);
    await emu.settle();
    expect((await client(emu, KEYS.alice).call("GET", `${ALICE_BRANCH}/functions/${slug}`)).status).toBe(404);
    expect((await client(emu, KEYS.alice).call("GET", ALICE)).status).toBe(200);
  });
});
});
