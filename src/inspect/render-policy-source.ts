/**
 * `renderPolicySource(pulled)`: a pulled branch as deterministic `svc.ts` text (policy.md §14).
 * Loading the text yields a config equal to `pulled.config`.
 */

/** What rendering needs from a `PulledBranchConfig` (engine.md §11). */
export interface RenderablePulledConfig {
  project: { id: string; name: string };
  branch: { id: string; name: string; isDefault?: boolean };
  config: { auth?: unknown; dataApi?: unknown; roles?: unknown; databases?: unknown; branch?: unknown };
  preview?: { buckets?: { name: string; access: string }[]; functions?: { slug: string; name: string }[] };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function renderKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** A JSON-like literal with 2-space indentation, JSON-quoted strings and keys in their given order. */
function renderValue(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${renderValue(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${renderKey(k)}: ${renderValue(v, inner)},`).join("\n")}\n${indent}}`;
}

/** The tuning the pulled closure returns for the branch it was pulled from. */
function tuningOf(branch: unknown, name: string, isDefault: boolean): unknown {
  if (typeof branch !== "function") return undefined;
  return (branch as (t: { name: string; exists: boolean; isDefault: boolean }) => unknown)({ name, exists: true, isDefault }) ?? {};
}

function comment(text: string): string {
  return `// ${text.replace(/[\r\n]+/g, " ")}`;
}

/** Renders a pulled branch as `svc.ts` source: keys `auth`, `dataApi`, `roles`, `databases`, `branch`, then comments. */
export function renderPolicySource(pulled: RenderablePulledConfig): string {
  const lines = [
    comment(`svc.ts pulled from project ${JSON.stringify(pulled.project.name)} (${pulled.project.id}), branch ${JSON.stringify(pulled.branch.name)} (${pulled.branch.id}).`),
    'import { defineConfig } from "svc-config/v1";',
    "",
    "export default defineConfig({",
  ];
  const { auth, dataApi, roles, databases, branch } = pulled.config;
  if (auth !== undefined) lines.push(`  auth: ${renderValue(auth, "  ")},`);
  if (dataApi !== undefined) lines.push(`  dataApi: ${renderValue(dataApi, "  ")},`);
  if (roles !== undefined) lines.push(`  roles: ${renderValue(roles, "  ")},`);
  if (databases !== undefined) lines.push(`  databases: ${renderValue(databases, "  ")},`);
  const isDefault = pulled.branch.isDefault === true;
  const tuning = tuningOf(branch, pulled.branch.name, isDefault);
  if (tuning !== undefined) {
    // The tuning applies to the kind of branch it was pulled from (default or not), so a preview
    // created from a pulled default branch's file does not inherit its protection.
    const [onDefault, onOthers] = isDefault ? [renderValue(tuning, "  "), "{}"] : ["{}", renderValue(tuning, "  ")];
    lines.push(`  branch: (t) => (t.isDefault ? ${onDefault} : ${onOthers}),`);
  }
  lines.push("});");
  const buckets = pulled.preview?.buckets ?? [];
  if (buckets.length > 0) {
    lines.push("", comment("Buckets on this branch (declare them under `buckets` to manage them):"));
    for (const b of buckets) lines.push(comment(`  ${JSON.stringify(b.name)}: { access: ${JSON.stringify(b.access)} }`));
  }
  const functions = pulled.preview?.functions ?? [];
  if (functions.length > 0) {
    lines.push("", comment("Functions on this branch (declare them under `functions` with a `source` to manage them):"));
    for (const f of functions) lines.push(comment(`  ${f.slug}: { name: ${JSON.stringify(f.name)} }`));
  }
  return `${lines.join("\n")}\n`;
}
