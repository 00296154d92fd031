/** The aws-chunked body decoding of streamed S3 uploads (pure). */
import { describe, expect, it } from "vitest";
import { decodeAwsChunked } from "../../../../src/emulator/s3/aws-chunked.js";

const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "latin1"));

describe("aws-chunked decoding", () => {
  it("joins the chunks and reads the trailers", () => {
    const decoded = decodeAwsChunked(bytesOf("3\r\nabc\r\na\r\n0123456789\r\n0\r\nx-amz-checksum-crc32:NSRBwg==\r\n\r\n"));
    expect(decoded.ok && [Buffer.from(decoded.bytes).toString(), [...decoded.trailers]]).toEqual(["abc0123456789", [["x-amz-checksum-crc32", "NSRBwg=="]]]);
  });

  it.each([
    ["a chunk shorter than declared", "5\r\nabc\r\n0\r\n\r\n"],
    ["a missing terminator", "3\r\nabc\r\n0\r\n"],
    ["a signed chunk header", "3;chunk-signature=ab\r\nabc\r\n0\r\n\r\n"],
    ["a size that is not hexadecimal", "zz\r\nabc\r\n0\r\n\r\n"],
    ["a trailer without a colon", "0\r\nbroken\r\n\r\n"],
  ])("refuses %s", (_what, body) => {
    expect(decodeAwsChunked(bytesOf(body)).ok).toBe(false);
  });
});
