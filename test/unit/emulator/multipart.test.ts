import { describe, expect, it } from "vitest";
import { deploymentBody } from "../../../src/api/feature-calls.js";
import { type MultipartFields, readPlainMultipart } from "../../../src/emulator/http/multipart.js";

const encoder = new TextEncoder();
const BOUNDARY = "----svc-config-0123456789abcdef";
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** What undici's parser (the one Hono's `parseBody` uses) reads, the last part of a name winning; `"refused"` when it fails. */
async function generalReading(body: Uint8Array, contentType: string): Promise<MultipartFields | "refused"> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    return "refused";
  }
  const fields: MultipartFields = new Map();
  for (const [name, value] of form.entries()) {
    fields.set(name, typeof value === "string" ? value : { kind: "file", bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return fields;
}

/** Fields as plain data, for comparing. */
function shown(fields: MultipartFields | "refused" | undefined): unknown {
  if (fields === undefined || fields === "refused") return fields;
  return [...fields].map(([name, value]) => [name, typeof value === "string" ? value : { file: [...value.bytes] }]);
}

/** Expects the plain reading to be the general parser's, or to leave the body to it. */
async function expectAgreement(body: Uint8Array, contentType = TYPE): Promise<MultipartFields | undefined> {
  const plain = readPlainMultipart(body, contentType);
  if (plain !== undefined) expect(shown(plain)).toEqual(shown(await generalReading(body, contentType)));
  return plain;
}

const text = (s: string): Uint8Array => encoder.encode(s);

/** A body of text parts (`filename` set: a file part) joined in the plain form. */
function plainBody(parts: { name: string; filename?: string; type?: string; content: string }[], boundary = BOUNDARY): string {
  const each = parts.map((p) => {
    const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}\r\n`;
    return `--${boundary}\r\n${disposition}${p.type === undefined ? "" : `Content-Type: ${p.type}\r\n`}\r\n${p.content}\r\n`;
  });
  return `${each.join("")}--${boundary}--\r\n`;
}

/** A deterministic generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

describe("reading a deployment's multipart body in its plain form", () => {
  it("reads what the platform client sends as the general parser does: the archive's bytes, the runtime, the environment", async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x0d, 0x0a, 0x2d, 0x2d, 0, 255]);
    const body = deploymentBody({ zip, runtime: "nodejs24", environment: { API_URL: "https://x", EMOJI: "é ✓" } });
    const read = await expectAgreement(body.bytes, body.contentType);
    expect(read).toBeDefined();
    expect(shown(read)).toContainEqual(["zip", { file: [...zip] }]);
    expect(read?.get("runtime")).toBe("nodejs24");
    expect(read?.get("environment")).toBe(JSON.stringify({ API_URL: "https://x", EMOJI: "é ✓" }));
  });

  it("reads what a fetch implementation serialises FormData to", async () => {
    const form = new FormData();
    form.append("zip", new Blob([new Uint8Array([1, 2, 3])], { type: "application/zip" }), "bundle.zip");
    form.append("runtime", "nodejs24");
    const request = new Request("http://emulator.invalid/", { method: "POST", body: form });
    const read = await expectAgreement(new Uint8Array(await request.arrayBuffer()), request.headers.get("content-type") ?? "");
    expect(read).toBeDefined();
    expect(read?.get("runtime")).toBe("nodejs24");
  });

  it("keeps the last part of a name, and reads a part with a file name as a file even when it holds text", async () => {
    const body = plainBody([
      { name: "runtime", content: "nodejs18" },
      { name: "runtime", content: "nodejs24" },
      { name: "environment", filename: "", content: "{}" },
      { name: "zip", content: "not a file" },
    ]);
    const read = await expectAgreement(text(body));
    expect(shown(read)).toEqual([["runtime", "nodejs24"], ["environment", { file: [...text("{}")] }], ["zip", "not a file"]]);
  });

  it.each([
    ["a body with no parts", `--${BOUNDARY}--`],
    ["leading blank lines", `\r\n\r\n${plainBody([{ name: "runtime", content: "nodejs24" }])}`],
    ["no closing delimiter", plainBody([{ name: "runtime", content: "nodejs24" }]).replace(`--${BOUNDARY}--\r\n`, "")],
    ["a part without a disposition", `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`],
    ["a disposition in other case", plainBody([{ name: "runtime", content: "nodejs24" }]).replace("form-data; name", "Form-Data; Name")],
    ["a header name in other case", plainBody([{ name: "runtime", content: "nodejs24" }]).replace("Content-Disposition", "content-DISPOSITION")],
    ["spaces around a header's colon", plainBody([{ name: "runtime", content: "nodejs24" }]).replace("Content-Disposition: ", "Content-Disposition :  ")],
    ["an encoded content", `--${BOUNDARY}\r\nContent-Disposition: form-data; name="runtime"\r\nContent-Transfer-Encoding: base64\r\n\r\nbm9kZWpzMjQ=\r\n--${BOUNDARY}--`],
    ["a text starting with a byte order mark", plainBody([{ name: "runtime", content: "\ufeffnodejs24" }])],
    ["an encoded name", plainBody([{ name: "zip%22", filename: "a", content: "x" }])],
    ["an extended file name", plainBody([{ name: "zip", content: "x" }]).replace('name="zip"', "name=\"zip\"; filename*=\"utf-8''a\"")],
    ["a parameter after the name", plainBody([{ name: "zip", content: "x" }]).replace('name="zip"', 'name="zip"; size=1')],
    ["content holding the boundary", plainBody([{ name: "runtime", content: `a${BOUNDARY}b` }])],
    ["a delimiter not on its own line", plainBody([{ name: "runtime", content: "nodejs24" }]).replace(`\r\n--${BOUNDARY}--`, `--${BOUNDARY}--`)],
    ["garbage after the closing delimiter", `${plainBody([{ name: "runtime", content: "nodejs24" }])}trailing`],
    ["a lone line feed between headers", plainBody([{ name: "zip", filename: "a", type: "application/zip", content: "x" }]).replace("\r\nContent-Type", "\nContent-Type")],
  ])("agrees with the general parser, or leaves it the body, on %s", async (_name, body) => {
    await expectAgreement(text(body));
  });

  it.each([
    ["a quoted boundary", `multipart/form-data; boundary="${BOUNDARY}"`],
    ["an upper-case media type", `Multipart/Form-Data; boundary=${BOUNDARY}`],
    ["no boundary", "multipart/form-data"],
    ["another parameter", `multipart/form-data; charset=utf-8; boundary=${BOUNDARY}`],
    ["two content types", `multipart/form-data; boundary=${BOUNDARY}, text/plain`],
  ])("leaves the body to the general parser for %s", async (_name, contentType) => {
    expect(readPlainMultipart(text(plainBody([{ name: "runtime", content: "nodejs24" }])), contentType)).toBeUndefined();
  });

  it("agrees with the general parser on 3,000 deterministic corruptions of a plain body, and refuses none it accepts", async () => {
    const base = text(plainBody([
      { name: "zip", filename: "bundle.zip", type: "application/zip", content: "PK\u0003\u0004--" },
      { name: "runtime", content: "nodejs24" },
      { name: "environment", content: '{"A":"1"}' },
    ]));
    const alphabet = text(`\r\n-"%;:= aZ${BOUNDARY.slice(-4)}`);
    const random = seeded(29);
    let readPlainly = 0;
    for (let i = 0; i < 3000; i++) {
      const bytes = [...base];
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * (bytes.length + 1));
        const byte = alphabet[Math.floor(random() * alphabet.length)] ?? 0;
        const kind = random();
        if (kind < 0.4) bytes.splice(at, 1);
        else if (kind < 0.7) bytes.splice(at, 0, byte);
        else bytes[Math.min(at, bytes.length - 1)] = byte;
      }
      if ((await expectAgreement(new Uint8Array(bytes))) !== undefined) readPlainly += 1;
    }
    // Most corruptions fall outside the plain form; some (in contents) stay within it.
    expect(readPlainly).toBeGreaterThan(100);
  });
});
