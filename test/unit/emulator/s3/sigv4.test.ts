/** SigV4 verification against AWS's published S3 example, and the refusals around it (pure). */
import { describe, expect, it } from "vitest";
import { awsUriEncode, verifySignature, type SignedRequest } from "../../../../src/emulator/s3/sigv4.js";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const EXAMPLE_TIME = Date.UTC(2013, 4, 24, 0, 0, 0);
const EMPTY_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** AWS's "GET Object" example of Signature Version 4 for S3 (header-based auth). */
function example(overrides: { headers?: Record<string, string>; path?: string; query?: string } = {}): SignedRequest {
  const headers: Record<string, string> = {
    host: "examplebucket.s3.amazonaws.com",
    range: "bytes=0-9",
    "x-amz-content-sha256": EMPTY_HASH,
    "x-amz-date": "20130524T000000Z",
    authorization:
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    ...overrides.headers,
  };
  return { method: "GET", rawPath: overrides.path ?? "/test.txt", rawQuery: overrides.query ?? "", headers: new Map(Object.entries(headers).map(([k, v]) => [k, [v]])) };
}

const secretOf = (id: string): string | null => (id === "AKIAIOSFODNN7EXAMPLE" ? SECRET : null);
const codeOf = (result: ReturnType<typeof verifySignature>): string => ("code" in result ? result.code : "valid");

describe("SigV4 verification", () => {
  it("accepts AWS's published example request", () => {
    expect(codeOf(verifySignature(example(), secretOf, EXAMPLE_TIME))).toBe("valid");
  });

  it.each([
    ["another path", { path: "/test2.txt" }, "SignatureDoesNotMatch"],
    ["an added query parameter", { query: "x-id=GetObject" }, "SignatureDoesNotMatch"],
    ["another signed header value", { headers: { range: "bytes=0-99" } }, "SignatureDoesNotMatch"],
    ["an unknown access key", { headers: { authorization: "AWS4-HMAC-SHA256 Credential=AKIDOTHER/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41" } }, "InvalidAccessKeyId"],
    ["an unsigned host", { headers: { authorization: "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41" } }, "AuthorizationHeaderMalformed"],
    ["another service", { headers: { authorization: "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/sqs/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41" } }, "AuthorizationHeaderMalformed"],
    ["Signature Version 2", { headers: { authorization: "AWS AKIAIOSFODNN7EXAMPLE:frJIUN8DYpKDtOLCwo//yllqDzg=" } }, "InvalidRequest"],
    ["no Authorization header", { headers: { authorization: "" } }, "InvalidRequest"],
    ["a malformed path", { path: "/test%E0.txt" }, "InvalidRequest"],
  ])("refuses %s", (_what, overrides, code) => {
    expect(codeOf(verifySignature(example(overrides), secretOf, EXAMPLE_TIME))).toBe(code);
  });

  it("refuses a request signed more than 15 minutes away from now, either way", () => {
    expect(codeOf(verifySignature(example(), secretOf, EXAMPLE_TIME + 16 * 60_000))).toBe("RequestTimeTooSkewed");
    expect(codeOf(verifySignature(example(), secretOf, EXAMPLE_TIME - 16 * 60_000))).toBe("RequestTimeTooSkewed");
    expect(codeOf(verifySignature(example(), secretOf, EXAMPLE_TIME + 14 * 60_000))).toBe("valid");
  });

  it("answers an anonymous request with AccessDenied", () => {
    const request = example();
    const headers = new Map(request.headers);
    headers.delete("authorization");
    expect(codeOf(verifySignature({ ...request, headers }, secretOf, EXAMPLE_TIME))).toBe("AccessDenied");
  });

  it("encodes every byte but the unreserved characters, upper-case", () => {
    expect(awsUriEncode("a b+c/ü*~(x)!'")).toBe("a%20b%2Bc%2F%C3%BC%2A~%28x%29%21%27");
    expect(awsUriEncode("in/a b", true)).toBe("in/a%20b");
  });
});
