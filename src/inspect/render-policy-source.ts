/**
 * `renderPolicySource(pulled)`: a pulled branch as deterministic `svc.ts` text.
 * Loading the text yields a config equal to `pulled.config`. Where a kind descriptor owns an
 * object (the Data API settings, the branch tuning, its compute settings), its fields render as
 * the descriptor says: fields a pull does not write are left out, durations as text (`"1h"`).
 */
import { escapeUnsafeText } from "../rules/visible-text.js";
import { formatDuration } from "../config/durations.js";
import { type PulledBucket, pulledBucketLines } from "../kinds/bucket/pull.js";
import { pulledDomainLines } from "../kinds/domain/pull.js";
import { BRANCH_SETTINGS } from "../kinds/branch/fields.js";
import { COMPUTE_SETTINGS } from "../kinds/compute/fields.js";
import { DATA_API_SETTINGS } from "../kinds/dataApi/fields.js";
import type { FieldDescriptor } from "../model/kinds/field.js";

/** What rendering needs from a `PulledBranchConfig`. */
export interface RenderablePulledConfig {
  project: { id: string; name: string };
  branch: { id: string; name: string; isDefault?: boolean };
  config: { auth?: unknown; dataApi?: unknown; roles?: unknown; databases?: unknown; prune?: unknown; branch?: unknown };
  preview?: {
    buckets?: PulledBucket[];
    functions?: { slug: string; name: string }[];
    /** Triggers in policy form with their names (`pulledTriggers`). */
    triggers?: readonly ({ name: string } & object)[];
    customDomains?: readonly { domain: string; function: string }[];
  };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JSON literal that is also safe JavaScript source to read: control, line-separator, bidi and
 * zero-width characters in a live name appear as `\uXXXX` escapes (the same string), so a pulled
 * file can neither break out of a comment nor display differently from what it runs.
 */
function literal(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? "undefined" : escapeUnsafeText(text);
}

function renderKey(key: string): string {
  return IDENTIFIER.test(key) ? key : literal(key);
}

/** The objects a kind descriptor owns, by their path from the top of the policy (`branch`: the tuning). */
const DESCRIBED: ReadonlyMap<string, readonly FieldDescriptor[]> = new Map<string, readonly FieldDescriptor[]>([
  ["dataApi.settings", DATA_API_SETTINGS],
  ["branch", BRANCH_SETTINGS],
  ["branch.postgres.computeSettings", COMPUTE_SETTINGS],
]);

/** A descriptor field's value: a duration given in seconds as text (`3600` → `"1h"`). */
function fieldValue(field: FieldDescriptor | undefined, value: unknown): unknown {
  const rule = field?.policyRule ?? field?.rule;
  return rule?.type === "duration" && typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? formatDuration(value) : value;
}

/**
 * A JSON-like literal with 2-space indentation, JSON-quoted strings and keys in their given
 * order; `path` locates the value in the policy, so descriptor-owned objects render their fields.
 */
function renderValue(value: unknown, indent: string, path: string): string {
  if (value === null || typeof value !== "object") return literal(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${renderValue(v, inner, `${path}[]`)},`).join("\n")}\n${indent}]`;
  }
  const fields = DESCRIBED.get(path) ?? [];
  const entries = Object.entries(value).flatMap(([key, v]): [string, unknown][] => {
    const field = fields.find((f) => f.policyKey === key);
    return v === undefined || field?.pulled === false ? [] : [[key, fieldValue(field, v)]];
  });
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${renderKey(k)}: ${renderValue(v, inner, `${path}.${k}`)},`).join("\n")}\n${indent}}`;
}

/** The tuning the pulled closure returns for the branch it was pulled from. */
function tuningOf(branch: unknown, name: string, isDefault: boolean): unknown {
  if (typeof branch !== "function") return undefined;
  return (branch as (t: { name: string; exists: boolean; isDefault: boolean }) => unknown)({ name, exists: true, isDefault }) ?? {};
}

/** A literal on one line (`{ type: "schedule", cron: "0 3 * * *" }`), for a comment. */
function renderInline(value: unknown): string {
  if (value === null || typeof value !== "object") return literal(value);
  if (Array.isArray(value)) return `[${value.map(renderInline).join(", ")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${renderKey(k)}: ${renderInline(v)}`).join(", ")} }`;
}

/** The trigger and custom-domain comments: each line is what to declare (next to the functions they name). */
function triggerAndDomainComments(preview: RenderablePulledConfig["preview"]): string[] {
  const lines: string[] = [];
  const triggers = preview?.triggers ?? [];
  if (triggers.length > 0) {
    lines.push("", comment("Triggers on this branch (declare them under `triggers`, with the functions they call, to manage them):"));
    for (const { name, ...definition } of triggers) lines.push(comment(`  ${renderKey(name)}: ${renderInline(definition)},`));
  }
  const domainLines = pulledDomainLines(preview?.customDomains ?? [], { key: renderKey, inline: renderInline });
  if (domainLines.length > 0) lines.push("", ...domainLines.map(comment));
  return lines;
}

/** A `//` comment of one line: what could end it (a line break, U+2028) or hide text is escaped. */
function comment(text: string): string {
  return `// ${escapeUnsafeText(text)}`;
}

/** Renders a pulled branch as `svc.ts` source: keys `auth`, `dataApi`, `roles`, `databases`, `prune`, `branch`, then comments. */
export function renderPolicySource(pulled: RenderablePulledConfig): string {
  const lines = [
    comment(`svc.ts pulled from project ${literal(pulled.project.name)} (${pulled.project.id}), branch ${literal(pulled.branch.name)} (${pulled.branch.id}).`),
    'import { defineConfig } from "svc-config/v1";',
    "",
    "export default defineConfig({",
  ];
  const { auth, dataApi, roles, databases, prune, branch } = pulled.config;
  if (auth !== undefined) lines.push(`  auth: ${renderValue(auth, "  ", "auth")},`);
  if (dataApi !== undefined) lines.push(`  dataApi: ${renderValue(dataApi, "  ", "dataApi")},`);
  if (roles !== undefined) lines.push(`  roles: ${renderValue(roles, "  ", "roles")},`);
  if (databases !== undefined) lines.push(`  databases: ${renderValue(databases, "  ", "databases")},`);
  if (prune !== undefined) {
    lines.push(`  ${comment("false: undeclared items of these kinds are listed as unmanaged when you plan, never deleted; true deletes them.")}`);
    lines.push(`  prune: ${renderValue(prune, "  ", "prune")},`);
  }
  const isDefault = pulled.branch.isDefault === true;
  const tuning = tuningOf(branch, pulled.branch.name, isDefault);
  if (tuning !== undefined) {
    // The tuning applies to the kind of branch it was pulled from (default or not), so a preview
    // created from a pulled default branch's file does not inherit its protection.
    const [onDefault, onOthers] = isDefault ? [renderValue(tuning, "  ", "branch"), "{}"] : ["{}", renderValue(tuning, "  ", "branch")];
    lines.push(`  branch: (t) => (t.isDefault ? ${onDefault} : ${onOthers}),`);
  }
  lines.push("});");
  const bucketLines = pulledBucketLines(pulled.preview?.buckets ?? [], literal);
  if (bucketLines.length > 0) lines.push("", ...bucketLines.map(comment));
  const functions = pulled.preview?.functions ?? [];
  if (functions.length > 0) {
    lines.push("", comment("Functions on this branch (declare them under `functions` with a `source` to manage them):"));
    for (const f of functions) lines.push(comment(`  ${f.slug}: { name: ${literal(f.name)} }`));
  }
  lines.push(...triggerAndDomainComments(pulled.preview));
  return `${lines.join("\n")}\n`;
}
