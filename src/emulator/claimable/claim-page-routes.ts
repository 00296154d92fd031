import { randomBytes, timingSafeEqual } from "node:crypto";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import { renderClaimPage, type OwnerOption } from "./claim-page.js";
import type { ClaimOwner } from "./record.js";
import type { ClaimableClock, ClaimableService } from "./service.js";

/** A signed-in principal of the management emulator, as the claim page needs it. */
export interface ClaimPrincipal {
  /** Stable id (user or key), passed on to the adoption. */
  readonly id: string;
  /** Shown as "Signed in as …" (never the key). */
  readonly label: string;
  /** The personal account (`personal`, personal keys only) and every organization the key can act for. */
  readonly owners: readonly OwnerOption[];
}

/** The management emulator's keys, seen from the claim page. */
export interface ClaimAccounts {
  /** The principal of a valid API key, or null for an unknown or revoked key. */
  signIn(apiKey: string): ClaimPrincipal | null | Promise<ClaimPrincipal | null>;
}

/** Options of {@link claimPageRoutes}. */
export interface ClaimPageOptions {
  readonly service: ClaimableService;
  readonly accounts: ClaimAccounts;
  readonly clock: ClaimableClock;
  /** The server's major version, shown on the page. */
  readonly pgVersion: () => number;
  /** @default crypto.randomBytes */
  readonly random?: (size: number) => Uint8Array;
  /** Resolves once every applied change is durable; the page waits for it. @default at once */
  readonly durable?: () => Promise<void>;
}

interface Session {
  readonly databaseId: string;
  readonly csrf: string;
  readonly expiresAt: number;
  readonly principal: ClaimPrincipal | null;
}

const COOKIE = "svc_claim";
const SESSION_MS = 30 * 60 * 1000;
const TAMPERED = "The form expired or was tampered with. Reload the page and try again.";

/**
 * The claim page at `claim_url` and its two form posts. The API key is checked
 * and forgotten: it is never stored, put in a cookie or URL, or echoed into HTML. Sessions live in
 * memory, bound to one database id, with a CSRF token each.
 */
export function claimPageRoutes(options: ClaimPageOptions): Hono {
  const { service, clock } = options;
  const random = options.random ?? ((size: number) => randomBytes(size));
  const token = (): string => Buffer.from(random(24)).toString("base64url");
  const sessions = new Map<string, Session>();
  const app = new Hono();

  const sessionOf = (c: Context, id: string): Session | null => {
    const key = getCookie(c, COOKIE);
    const session = key === undefined ? undefined : sessions.get(key);
    if (!session || session.databaseId !== id || session.expiresAt <= clock.now()) return null;
    return session;
  };
  const openSession = (c: Context, id: string, principal: ClaimPrincipal | null): Session => {
    const previous = getCookie(c, COOKIE);
    if (previous !== undefined) sessions.delete(previous);
    const now = clock.now();
    for (const [stale, old] of sessions) if (old.expiresAt <= now) sessions.delete(stale);
    const key = token();
    const session: Session = { databaseId: id, csrf: token(), expiresAt: now + SESSION_MS, principal };
    sessions.set(key, session);
    setCookie(c, COOKIE, key, { httpOnly: true, sameSite: "Strict", path: `/claim/${id}`, maxAge: SESSION_MS / 1000 });
    return session;
  };
  const page = (c: Context, id: string, status: 200 | 401 | 403 | 404 | 409 | 422, error: string | null): Response => {
    c.header("Cache-Control", "no-store");
    const record = service.get(id);
    if (!record) return c.html(renderClaimPage({ kind: "not-found" }), 404);
    const session = sessionOf(c, record.id) ?? openSession(c, record.id, null);
    const owners = session.principal?.owners ?? null;
    const view = { kind: "record" as const, record, now: clock.now(), pgVersion: options.pgVersion(), csrf: session.csrf, owners, principalLabel: session.principal?.label ?? null, error };
    return c.html(renderClaimPage(view), status);
  };
  const form = async (c: Context): Promise<Record<string, string>> => {
    const parsed = await c.req.parseBody();
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") out[key] = value;
    return out;
  };

  app.use("/claim/*", bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.text("Payload too large", 413) }));
  app.use("/claim/*", async (c, next) => {
    if (c.req.method === "GET") await options.durable?.();
    await service.materialize();
    await next();
  });
  app.get("/claim/:id", (c) => page(c, c.req.param("id").toLowerCase(), 200, null));
  app.post("/claim/:id/sign-in", async (c) => {
    const id = c.req.param("id").toLowerCase();
    const fields = await form(c);
    const session = sessionOf(c, id);
    if (!service.get(id)) return page(c, id, 404, null);
    if (!session || !sameToken(fields["csrf"], session.csrf)) return page(c, id, 403, TAMPERED);
    const principal = await options.accounts.signIn((fields["api_key"] ?? "").trim());
    if (!principal) return page(c, id, 401, "That API key is not valid. Use a personal or organization API key of the emulator.");
    openSession(c, id, principal);
    return c.redirect(`/claim/${id}`, 303);
  });
  app.post("/claim/:id/transfer", async (c) => {
    const id = c.req.param("id").toLowerCase();
    const fields = await form(c);
    const session = sessionOf(c, id);
    if (!service.get(id)) return page(c, id, 404, null);
    if (!session || !sameToken(fields["csrf"], session.csrf)) return page(c, id, 403, TAMPERED);
    if (!session.principal) return page(c, id, 401, "Sign in with an API key first.");
    const ownerId = fields["owner"] ?? "";
    if (!session.principal.owners.some((o) => o.id === ownerId)) return page(c, id, 422, `Choose one of the offered owners; "${ownerId}" is not one of them.`);
    const projectName = (fields["project_name"] ?? "").trim();
    if (projectName === "" || projectName.length > 64) return page(c, id, 422, "The project name must have 1 to 64 characters.");
    const owner: ClaimOwner = ownerId === "personal" ? { kind: "personal" } : { kind: "organization", orgId: ownerId };
    try {
      service.startTransfer(id, { owner, projectName, principalId: session.principal.id });
    } catch (err) {
      return page(c, id, 409, err instanceof Error ? err.message : String(err));
    }
    return c.redirect(`/claim/${id}`, 303);
  });
  return app;
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
