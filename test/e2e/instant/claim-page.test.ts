import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresBackend } from "../../../src/emulator/postgres/backend.js";
import { call, query, startHarness, testBackend, type Harness } from "./harness.js";

let backend: PostgresBackend;
let h: Harness;

beforeAll(async () => {
  backend = testBackend();
  h = await startHarness(backend);
});
afterAll(async () => {
  await h?.close();
  await backend?.stop();
});

/** A browser-like client for one claim page: keeps the session cookie and the latest CSRF token. */
function pageClient(url: string) {
  let cookie = "";
  let csrf = "";
  const remember = (res: Response): void => {
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0] ?? "";
  };
  return {
    get setCookie() {
      return cookie;
    },
    get csrf() {
      return csrf;
    },
    async open(): Promise<{ status: number; html: string; setCookieHeader: string | null }> {
      const res = await fetch(url, { headers: cookie ? { cookie } : {} });
      const setCookieHeader = res.headers.get("set-cookie");
      remember(res);
      const html = await res.text();
      csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
      return { status: res.status, html, setCookieHeader };
    },
    async post(action: string, fields: Record<string, string>): Promise<{ status: number; location: string | null; html: string }> {
      const res = await fetch(`${url}/${action}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
      });
      remember(res);
      return { status: res.status, location: res.headers.get("location"), html: await res.text() };
    },
  };
}

async function createDatabase(ref = "claim-test"): Promise<{ id: string; claimUrl: string; direct: string }> {
  const res = await call(`${h.url}/api/v1/database`, "POST", { ref });
  return {
    id: String(res.body["id"]),
    claimUrl: String(res.body["claim_url"]),
    direct: String((res.body["emulator"] as Record<string, unknown>)["direct_connection_string"]),
  };
}

describe("the claim page", () => {
  it("walks sign-in, owner choice and transfer to CLAIMED, after which the API hides the connection string", async () => {
    const db = await createDatabase();
    const page = pageClient(db.claimUrl);
    const first = await page.open();
    expect(first.status).toBe(200);
    expect(first.html).toContain('data-testid="claim-status">UNCLAIMED<');
    expect(first.html).toMatch(/<input type="password" name="api_key" autocomplete="off"[^>]*data-testid="api-key-input"/);
    expect(first.html).not.toMatch(/<script/i);
    expect(first.setCookieHeader).toMatch(new RegExp(`^svc_claim=[^;]+; Max-Age=1800; Path=/claim/${db.id}; HttpOnly; SameSite=Strict$`));

    const bad = await page.post("sign-in", { api_key: "wrong-secret-key", csrf: page.csrf });
    expect(bad.status).toBe(401);
    expect(bad.html).toContain('data-testid="claim-error"');
    expect(bad.html).not.toContain("wrong-secret-key");

    const good = await page.post("sign-in", { api_key: "personal-key", csrf: page.csrf });
    expect(good.status).toBe(303);
    expect(good.location).toBe(`/claim/${db.id}`);
    expect(page.setCookie).not.toContain("personal-key");

    const signedIn = await page.open();
    expect(signedIn.html).toContain('data-testid="owner-option-personal"');
    expect(signedIn.html).toContain('data-testid="owner-option-org-acme"');
    expect(signedIn.html).toContain(`value="claimed-${db.id.replaceAll("-", "").slice(0, 8)}"`);
    expect(signedIn.html).not.toContain("personal-key");

    const transfer = await page.post("transfer", { owner: "org-acme", project_name: "my-claimed-app", csrf: page.csrf });
    expect(transfer.status).toBe(303);
    const claiming = await page.open();
    expect(claiming.html).toContain('data-testid="claim-status">CLAIMING<');
    expect(claiming.html).toContain('<meta http-equiv="refresh" content="1">');
    expect((await call(`${h.url}/api/v1/database/${db.id}`, "GET")).body["status"]).toBe("CLAIMING");

    h.clock.advance(1000);
    const claimed = await page.open();
    expect(claimed.html).toContain('data-testid="claim-success"');
    expect(claimed.html).toContain('data-testid="claim-status">CLAIMED<');
    expect(claimed.html).not.toContain("<form");
    const record = (await call(`${h.url}/api/v1/database/${db.id}`, "GET")).body;
    expect(record).toMatchObject({ status: "CLAIMED", connection_string: null, expires_at: null });
    expect(h.adoptions.find((a) => a.databaseId === db.id)).toMatchObject({ projectName: "my-claimed-app", owner: { kind: "organization", orgId: "org-acme" } });
    expect(await query(db.direct, "SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
  });

  it("offers an organization key only its own organization", async () => {
    const db = await createDatabase();
    const page = pageClient(db.claimUrl);
    await page.open();
    await page.post("sign-in", { api_key: "org-key", csrf: page.csrf });
    const html = (await page.open()).html;
    expect(html).toContain('data-testid="owner-option-org-acme"');
    expect(html).not.toContain('data-testid="owner-option-personal"');
  });

  it("rejects a missing or tampered CSRF token", async () => {
    const db = await createDatabase();
    const page = pageClient(db.claimUrl);
    await page.open();
    expect((await page.post("sign-in", { api_key: "personal-key" })).status).toBe(403);
    expect((await page.post("sign-in", { api_key: "personal-key", csrf: `${page.csrf}x` })).status).toBe(403);
    await page.post("sign-in", { api_key: "personal-key", csrf: page.csrf });
    await page.open();
    const tampered = await page.post("transfer", { owner: "personal", project_name: "p", csrf: "forged" });
    expect(tampered.status).toBe(403);
    expect((await call(`${h.url}/api/v1/database/${db.id}`, "GET")).body["status"]).toBe("UNCLAIMED");
  });

  it("returns a database to UNCLAIMED with its expiry when the transfer fails, and shows why", async () => {
    const failing = await startHarness(backend, {
      adopt: () => {
        throw new Error("organization org-acme no longer exists");
      },
    });
    try {
      const created = await call(`${failing.url}/api/v1/database`, "POST", { ref: "vanishing-org" });
      const id = String(created.body["id"]);
      failing.service.startTransfer(id, { owner: { kind: "organization", orgId: "org-acme" }, projectName: "p", principalId: "user-1" });
      failing.clock.advance(1000);
      const after = await call(`${failing.url}/api/v1/database/${id}`, "GET");
      expect(after.body).toMatchObject({ status: "UNCLAIMED", expires_at: created.body["expires_at"] });
      const html = await (await fetch(`${failing.url}/claim/${id}`)).text();
      expect(html).toMatch(/data-testid="claim-error">The transfer failed: organization org-acme no longer exists</);
      expect(html).toContain('data-testid="api-key-input"');
    } finally {
      await failing.close();
    }
  });

  it("shows the not-found page for unknown and expired ids", async () => {
    const db = await createDatabase();
    h.clock.advance(72 * 3_600_000);
    for (const url of [db.claimUrl, `${h.url}/claim/0197a3c2-0000-7000-8000-00000000ffff`]) {
      const res = await pageClient(url).open();
      expect(res.status).toBe(404);
      expect(res.html).toContain('data-testid="claim-not-found">This database does not exist or has expired.<');
    }
  });
});
