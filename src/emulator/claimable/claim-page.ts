import type { ClaimableRecord } from "./record.js";

/** An owner the signed-in principal may transfer to: `personal` or an organization id. */
export interface OwnerOption {
  readonly id: string;
  readonly label: string;
}

/** What the claim page shows for one request. */
export type ClaimPageView =
  | { readonly kind: "not-found" }
  | {
      readonly kind: "record";
      readonly record: ClaimableRecord;
      readonly now: number;
      readonly pgVersion: number;
      readonly csrf: string;
      /** Owner options when signed in; null shows the API-key form. */
      readonly owners: readonly OwnerOption[] | null;
      readonly principalLabel: string | null;
      readonly error: string | null;
    };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** "in 3 hours", "in 12 minutes", "2 days ago": a coarse relative time. */
export function relativeTime(target: number, now: number): string {
  const diff = target - now;
  const abs = Math.abs(diff);
  const units: Array<[string, number]> = [["day", 86_400_000], ["hour", 3_600_000], ["minute", 60_000]];
  let phrase = "less than a minute";
  for (const [unit, size] of units) {
    const count = Math.floor(abs / size);
    if (count >= 1 && (unit !== "day" || count >= 2)) {
      phrase = `${count} ${unit}${count === 1 ? "" : "s"}`;
      break;
    }
  }
  return diff >= 0 ? `in ${phrase}` : `${phrase} ago`;
}

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}" +
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{font-weight:600}" +
  ".error{color:#a40000;font-weight:600}label{display:block;margin:.6rem 0}button{margin-top:.8rem;padding:.4rem 1rem}";

/** Renders the whole page: no JavaScript, inline CSS, no external assets. */
export function renderClaimPage(view: ClaimPageView): string {
  if (view.kind === "not-found") {
    return layout("Database not found", '<h1>Database not found</h1><p data-testid="claim-not-found">This database does not exist or has expired.</p>', false);
  }
  const { record } = view;
  const parts = [
    "<h1>Claim your Postgres database</h1>",
    `<p>Status: <strong data-testid="claim-status">${escapeHtml(record.status)}</strong></p>`,
  ];
  if (view.error) parts.push(`<p class="error" data-testid="claim-error">${escapeHtml(view.error)}</p>`);
  if (record.status === "CLAIMED") {
    parts.push(
      '<section data-testid="claim-success">',
      `<p>This database now belongs to project <code>${escapeHtml(record.svcProjectId)}</code>, owned by ${escapeHtml(record.orgId === null ? "the personal account" : `organization ${record.orgId}`)}.</p>`,
      `<p>The claim API no longer returns the connection string; get it from <code>GET /api/v2/projects/${escapeHtml(record.svcProjectId)}/connection_uri</code>.</p>`,
      "</section>",
    );
    return layout("Database claimed", parts.join(""), false);
  }
  parts.push(details(view.record, view.now, view.pgVersion));
  if (record.status === "CLAIMING") {
    parts.push("<p>Transferring…</p>");
    return layout("Transferring", parts.join(""), true);
  }
  if (record.transferError) parts.push(`<p class="error" data-testid="claim-error">${escapeHtml(record.transferError)}</p>`);
  const base = `/claim/${encodeURIComponent(record.id)}`;
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">`;
  if (view.owners === null) {
    parts.push(
      `<form method="post" action="${base}/sign-in">${csrf}`,
      '<label>API key <input type="password" name="api_key" autocomplete="off" required data-testid="api-key-input"></label>',
      '<button type="submit" data-testid="sign-in">Sign in</button></form>',
    );
  } else {
    const options = view.owners
      .map((o, i) => `<label><input type="radio" name="owner" value="${escapeHtml(o.id)}"${i === 0 ? " checked" : ""} data-testid="owner-option-${escapeHtml(o.id)}"> ${escapeHtml(o.label)}</label>`)
      .join("");
    const defaultName = `claimed-${record.id.replaceAll("-", "").slice(0, 8)}`;
    parts.push(
      `<p>Signed in as ${escapeHtml(view.principalLabel ?? "")}.</p>`,
      `<form method="post" action="${base}/transfer">${csrf}<fieldset><legend>Owner</legend>${options}</fieldset>`,
      `<label>Project name <input type="text" name="project_name" value="${escapeHtml(defaultName)}" required maxlength="64" data-testid="project-name-input"></label>`,
      '<button type="submit" data-testid="transfer">Transfer</button></form>',
    );
  }
  return layout("Claim your database", parts.join(""), false);
}

function details(record: ClaimableRecord, now: number, pgVersion: number): string {
  const created = new Date(record.createdAt).toISOString();
  const expiry = record.expiresAt === null ? "never" : `${new Date(record.expiresAt).toISOString()} (${relativeTime(record.expiresAt, now)})`;
  return (
    "<dl>" +
    `<dt>Database</dt><dd><code>${escapeHtml(record.id)}</code></dd>` +
    `<dt>Created</dt><dd>${created} (${relativeTime(record.createdAt, now)})</dd>` +
    `<dt>Expires</dt><dd>${expiry}</dd>` +
    `<dt>Postgres</dt><dd>${pgVersion}</dd>` +
    "<dt>Region</dt><dd>aws-us-east-2</dd>" +
    (record.readOnly ? `<dt>Read-only</dt><dd>${escapeHtml(record.readOnlyReason ?? "")}</dd>` : "") +
    "</dl>"
  );
}

function layout(title: string, body: string, refresh: boolean): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    (refresh ? '<meta http-equiv="refresh" content="1">' : "") +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
  );
}
