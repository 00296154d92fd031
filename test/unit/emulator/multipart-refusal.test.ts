import { describe, expect, it } from "vitest";
import { unreadableMultipartReason } from "../../../src/emulator/http/multipart-refusal.js";

const TYPE = "multipart/form-data; boundary=b0und";
const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "latin1"));
const part = (headers: string, content: string): string => `--b0und\r\n${headers}\r\n\r\n${content}\r\n`;
const RUNTIME = part('Content-Disposition: form-data; name="runtime"', "nodejs24");

describe("why a multipart body cannot be read", () => {
  it.each([
    ["a body that never arrived whole", undefined, TYPE, "the body could not be received whole"],
    ["a Content-Type without a boundary", bytes(`${RUNTIME}--b0und--\r\n`), "multipart/form-data", "its Content-Type names no boundary: send multipart/form-data; boundary=…"],
    ["an empty quoted boundary", bytes(`${RUNTIME}--b0und--\r\n`), 'multipart/form-data; boundary=""', "its Content-Type names no boundary: send multipart/form-data; boundary=…"],
    ["an empty body", bytes(""), TYPE, "the body is empty"],
    ["another boundary than the Content-Type's", bytes(`${RUNTIME}--b0und--\r\n`), "multipart/form-data; boundary=other", "it does not start with the delimiter --other"],
    ["a quoted boundary, compared unquoted", bytes("x"), 'multipart/form-data; boundary="a:b"', "it does not start with the delimiter --a:b"],
    ["a boundary with characters no boundary may hold, not echoed", bytes("x"), "multipart/form-data; boundary=\u001b[2J", "it does not start with the boundary its Content-Type names"],
    ["LF line endings", bytes(`--b0und\nContent-Disposition: form-data; name="runtime"\n\nnodejs24\n--b0und--\n`), TYPE, "its lines end with LF alone; multipart/form-data needs CRLF line endings"],
    ["no closing delimiter", bytes(RUNTIME), TYPE, "it does not end with the closing delimiter --b0und--"],
    ["text after the closing delimiter", bytes(`${RUNTIME}--b0und--\r\nmore`), TYPE, "it does not end with the closing delimiter --b0und--"],
    ["a part without a name", bytes(`${part("Content-Disposition: form-data", "x")}--b0und--\r\n`), TYPE, 'part 1 is malformed: a part needs a Content-Disposition: form-data; name="…" header and a blank line before its content'],
    ["a second part with no blank line after its headers", bytes(`${RUNTIME}--b0und\r\nContent-Disposition: form-data; name="zip"\r\nPK\r\n--b0und--\r\n`), TYPE, 'part 2 is malformed: a part needs a Content-Disposition: form-data; name="…" header and a blank line before its content'],
    ["a part's content holding the bare boundary", bytes(`${part('Content-Disposition: form-data; name="zip"; filename="a.zip"', "PK..b0und..")}--b0und--\r\n`), TYPE, "part 1's content holds the boundary: choose a boundary that no part's content holds"],
    ["a header line without a colon", bytes(`${part('Content-Disposition: form-data; name="runtime"\r\nbogus', "nodejs24")}--b0und--\r\n`), TYPE, "a part's headers cannot be read: each is one Name: value line ending in CRLF"],
  ])("%s", (_name, body, contentType, reason) => {
    expect(unreadableMultipartReason(body, contentType)).toBe(reason);
  });

  it("counts a header block of more than 16 KiB as malformed without reading it as lines", () => {
    const body = bytes(`${part(`Content-Disposition: form-data; name="runtime"\r\nX-Pad: ${";".repeat(20_000)}`, "nodejs24")}--b0und--\r\n`);
    expect(unreadableMultipartReason(body, TYPE)).toMatch(/^part 1 is malformed/);
  });

  it("never throws and always names a reason, whatever the bytes", () => {
    let state = 7;
    const next = (): number => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state >>> 24;
    };
    const alphabet = ["--b0und", "\r\n", "\n", "--", "Content-Disposition: form-data; name=\"a\"", ";", ":", "x", "\u0000"];
    for (let i = 0; i < 2_000; i++) {
      const text = Array.from({ length: next() % 24 }, () => alphabet[next() % alphabet.length]).join("");
      expect(unreadableMultipartReason(bytes(text), TYPE).length).toBeGreaterThan(0);
    }
  });
});
