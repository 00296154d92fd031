/**
 * Presigned object URLs: the token is `<payload>.<mac>`, the payload naming
 * project, branch, bucket, key, method, content type and expiry (base64url JSON), the mac an
 * HMAC-SHA-256 of it under the instance's secret. Expired or altered tokens are refused.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** What a presigned URL allows. */
export interface PresignGrant {
  projectId: string;
  branchId: string;
  bucket: string;
  key: string;
  method: "PUT" | "GET";
  /** Required `Content-Type` of an upload ("" = any). */
  contentType: string;
  /** Epoch ms. */
  expiresAt: number;
}

function mac(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}

/** Signs a grant into a URL-safe token. */
export function signGrant(secret: string, grant: PresignGrant): string {
  const payload = Buffer.from(JSON.stringify([grant.projectId, grant.branchId, grant.bucket, grant.key, grant.method, grant.contentType, grant.expiresAt])).toString("base64url");
  return `${payload}.${mac(secret, payload)}`;
}

/** Verifies a token: the grant, "altered" (bad signature or shape) or "expired". */
export function verifyGrant(secret: string, token: string, now: number): PresignGrant | "altered" | "expired" {
  const dot = token.indexOf(".");
  if (dot <= 0) return "altered";
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "altered";
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return "altered";
  }
  if (!Array.isArray(fields) || fields.length !== 7) return "altered";
  const [projectId, branchId, bucket, key, method, contentType, expiresAt] = fields as unknown[];
  if (typeof projectId !== "string" || typeof branchId !== "string" || typeof bucket !== "string" || typeof key !== "string" || (method !== "PUT" && method !== "GET") || typeof contentType !== "string" || typeof expiresAt !== "number") return "altered";
  if (now >= expiresAt) return "expired";
  return { projectId, branchId, bucket, key, method, contentType, expiresAt };
}
