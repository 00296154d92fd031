/**
 * AWS Signature Version 4 verification for the emulator's S3 endpoint, written from AWS's
 * published algorithm: the canonical request (method, canonical URI, canonical query string,
 * canonical headers, signed header names, payload hash), the string to sign, the signing key
 * derived from the secret, date, region and service, and a constant-time comparison. Pure: the
 * caller supplies the request's raw parts, the secret of the access key and the current time.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** The signature scheme the endpoint accepts. */
const ALGORITHM = "AWS4-HMAC-SHA256";

/** How far a request's `x-amz-date` may be from the current time (AWS allows 15 minutes). */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

/** What the `Authorization` header says. */
export interface ParsedAuthorization {
  accessKeyId: string;
  /** `YYYYMMDD` of the credential scope. */
  date: string;
  region: string;
  service: string;
  /** Lower-case header names, in the order given (they must be sorted). */
  signedHeaders: string[];
  /** Lower-case hex. */
  signature: string;
}

/** A request as the verifier sees it: every part raw, as it arrived. */
export interface SignedRequest {
  method: string;
  /** The path as sent (still percent-encoded), without the query string. */
  rawPath: string;
  /** The query string as sent, without `?` ("" when none). */
  rawQuery: string;
  /** Header values by lower-case name, repeated headers in arrival order. */
  headers: ReadonlyMap<string, readonly string[]>;
}

/** Why a request's signature is refused; the S3 error code goes with it. */
export interface SignatureFailure {
  code: "AccessDenied" | "AuthorizationHeaderMalformed" | "InvalidAccessKeyId" | "SignatureDoesNotMatch" | "RequestTimeTooSkewed" | "InvalidRequest";
  message: string;
}

/** Encodes text as SigV4 wants: every byte but `A–Z a–z 0–9 - _ . ~` as `%XY` (upper-case hex). */
export function awsUriEncode(text: string, keepSlash = false): string {
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, "/") : encoded;
}

/** Decodes one percent-encoded component; `null` when it is not valid UTF-8 percent-encoding. */
export function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** The canonical URI of a raw S3 path: each segment decoded once and re-encoded (S3 does not normalise `.` or `//`). */
function canonicalUri(rawPath: string): string | null {
  const segments: string[] = [];
  for (const segment of rawPath.split("/")) {
    const decoded = decodeComponent(segment);
    if (decoded === null) return null;
    segments.push(awsUriEncode(decoded));
  }
  const uri = segments.join("/");
  return uri === "" ? "/" : uri;
}

/** The canonical query string: every parameter decoded and re-encoded, sorted by name, then value. */
function canonicalQuery(rawQuery: string): string | null {
  const pairs: [string, string][] = [];
  for (const item of rawQuery.split("&")) {
    if (item === "") continue;
    const eq = item.indexOf("=");
    const name = decodeComponent(eq < 0 ? item : item.slice(0, eq));
    const value = decodeComponent(eq < 0 ? "" : item.slice(eq + 1));
    if (name === null || value === null) return null;
    pairs.push([awsUriEncode(name), awsUriEncode(value)]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/** A header value as SigV4 canonicalises it: trimmed, inner runs of spaces collapsed. */
function canonicalValue(value: string): string {
  return value.trim().replace(/ +/g, " ");
}

/** Parses `AWS4-HMAC-SHA256 Credential=…/date/region/service/aws4_request, SignedHeaders=…, Signature=…`. */
export function parseAuthorization(header: string): ParsedAuthorization | SignatureFailure {
  const malformed = (why: string): SignatureFailure => ({ code: "AuthorizationHeaderMalformed", message: `the Authorization header is malformed: ${why}` });
  if (!header.startsWith(`${ALGORITHM} `)) return { code: "InvalidRequest", message: `the Authorization header must use ${ALGORITHM} (Signature Version 4)` };
  const fields = new Map<string, string>();
  for (const part of header.slice(ALGORITHM.length + 1).split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return malformed(`"${part.trim().slice(0, 40)}" is not name=value`);
    fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get("Credential");
  const signedHeaders = fields.get("SignedHeaders");
  const signature = fields.get("Signature");
  if (credential === undefined || signedHeaders === undefined || signature === undefined) return malformed("it needs Credential, SignedHeaders and Signature");
  const scope = credential.split("/");
  if (scope.length !== 5 || scope[4] !== "aws4_request") return malformed("Credential must be ACCESS_KEY/YYYYMMDD/REGION/SERVICE/aws4_request");
  const [accessKeyId = "", date = "", region = "", service = ""] = scope;
  if (!/^\d{8}$/.test(date)) return malformed("the credential scope's date must be YYYYMMDD");
  if (service !== "s3") return malformed(`the credential scope names service "${service.slice(0, 20)}"; this endpoint is s3`);
  if (!/^[0-9a-f]{64}$/.test(signature)) return malformed("Signature must be 64 lower-case hex digits");
  const names = signedHeaders.split(";");
  if (names.some((n) => n === "" || n !== n.toLowerCase())) return malformed("SignedHeaders must be lower-case names separated by ;");
  return { accessKeyId, date, region, service, signedHeaders: names, signature };
}

/** `YYYYMMDDTHHMMSSZ` as epoch ms, or null. */
function parseAmzDate(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (m === null) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(ms) ? null : ms;
}

function hmac(key: Buffer | string, text: string): Buffer {
  return createHmac("sha256", key).update(text, "utf8").digest();
}

/** Hex SHA-256. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The signature SigV4 expects for `request`, signed with `secret` under the parsed scope; null when the request cannot be canonicalised. */
export function expectedSignature(request: SignedRequest, auth: ParsedAuthorization, secret: string): string | null {
  const uri = canonicalUri(request.rawPath);
  const query = canonicalQuery(request.rawQuery);
  if (uri === null || query === null) return null;
  const headerLines = auth.signedHeaders.map((name) => `${name}:${(request.headers.get(name) ?? []).map(canonicalValue).join(",")}\n`).join("");
  const payloadHash = request.headers.get("x-amz-content-sha256")?.[0] ?? "UNSIGNED-PAYLOAD";
  const canonicalRequest = [request.method, uri, query, headerLines, auth.signedHeaders.join(";"), payloadHash].join("\n");
  const amzDate = request.headers.get("x-amz-date")?.[0] ?? "";
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, auth.date), auth.region), auth.service), "aws4_request");
  return createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
}

/**
 * Verifies a request signed in its `Authorization` header. `secretOf` returns the secret of an
 * access key or null when the key is unknown here. Returns the parsed authorization when the
 * signature matches, else why not. `host`, `x-amz-date` and `x-amz-content-sha256` must be
 * signed; the request time must be within 15 minutes of `nowMs`.
 */
export function verifySignature(request: SignedRequest, secretOf: (accessKeyId: string) => string | null, nowMs: number): ParsedAuthorization | SignatureFailure {
  const header = request.headers.get("authorization")?.[0];
  if (header === undefined) return { code: "AccessDenied", message: "anonymous requests are refused: sign the request with Signature Version 4 (the AWS_* credentials of the branch)" };
  const auth = parseAuthorization(header);
  if ("code" in auth) return auth;
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"]) {
    if (!auth.signedHeaders.includes(required)) return { code: "AuthorizationHeaderMalformed", message: `the Authorization header is malformed: SignedHeaders must include ${required}` };
  }
  const sorted = [...auth.signedHeaders].sort();
  if (sorted.some((name, i) => name !== auth.signedHeaders[i])) return { code: "AuthorizationHeaderMalformed", message: "the Authorization header is malformed: SignedHeaders must be sorted" };
  const amzDate = request.headers.get("x-amz-date")?.[0] ?? "";
  const at = parseAmzDate(amzDate);
  if (at === null || !amzDate.startsWith(auth.date)) return { code: "AuthorizationHeaderMalformed", message: "x-amz-date must be YYYYMMDDTHHMMSSZ on the credential scope's date" };
  if (Math.abs(at - nowMs) > MAX_CLOCK_SKEW_MS) return { code: "RequestTimeTooSkewed", message: "the difference between the request time and the current time is too large (more than 15 minutes)" };
  const secret = secretOf(auth.accessKeyId);
  if (secret === null) return { code: "InvalidAccessKeyId", message: "the access key id does not exist for this branch's object storage" };
  const expected = expectedSignature(request, auth, secret);
  if (expected === null) return { code: "InvalidRequest", message: "the request path or query string is not valid percent-encoded UTF-8" };
  const same = timingSafeEqual(Buffer.from(expected, "utf8"), Buffer.from(auth.signature, "utf8"));
  if (!same) return { code: "SignatureDoesNotMatch", message: "the request signature does not match the one calculated with the secret key: check the key and the signing method" };
  return auth;
}
