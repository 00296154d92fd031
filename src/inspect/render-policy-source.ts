/**
 * `renderPolicySourceWith(kinds, pulled)`: a pulled branch as deterministic `svc.ts` text.
 * Loading the text yields a config equal to `pulled.config`. Where a kind's descriptor owns an
 * object (`KindPull.described`: the Data API settings, the branch tuning, its compute settings),
 * its fields render as the descriptor says: fields a pull does not write are left out, durations
 * as text (`"1h"`). Each kind comments on what the policy cannot declare (`KindPull.comments`).
 */
import { escapeUnsafeText } from "../rules/visible-text.js";
import { formatDuration } from "../config/durations.js";
import type { KindPreviews } from "../kinds/index.js";
import type { FieldDescriptor } from "../model/kinds/field.js";
import type { KindPull, SourceText } from "./kind-pull.js";
import { policyEntries } from "./policy-order.js";

/** What rendering needs from a `PulledBranchConfig`. */
export interface RenderablePulledConfig {
  project: { id: string; name: string };
  branch: { id: string; name: string; isDefault?: boolean };
  /** The pulled policy: its keys render in the order the policy's schema declares them. */
  config: object;
  /** The lists the kinds comment on after the policy (`pulledTriggers`, `pulledBuckets`, …). */
  preview?: Partial<KindPreviews>;
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

/** The objects the kinds' descriptors own, by their path from the top of the policy (`branch`: the tuning). */
type Described = ReadonlyMap<string, readonly FieldDescriptor[]>;

function describedBy(kinds: readonly KindPull[]): Described {
  return new Map(kinds.flatMap((kind) => Object.entries(kind.described ?? {})));
}

/** A descriptor field's value: a duration given in seconds as text (`3600` → `"1h"`). */
function fieldValue(field: FieldDescriptor | undefined, value: unknown): unknown {
  const rule = field?.policyRule ?? field?.rule;
  return rule?.type === "duration" && typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? formatDuration(value) : value;
}

/**
 * A JSON-like literal with 2-space indentation, JSON-quoted strings and keys in their given
 * order; `path` locates the value in the policy, so descriptor-owned objects render their fields.
 */
function renderValue(value: unknown, indent: string, path: string, described: Described): string {
  if (value === null || typeof value !== "object") return literal(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${renderValue(v, inner, `${path}[]`, described)},`).join("\n")}\n${indent}]`;
  }
  const fields = described.get(path) ?? [];
  const entries = Object.entries(value).flatMap(([key, v]): [string, unknown][] => {
    const field = fields.find((f) => f.policyKey === key);
    return v === undefined || field?.pulled === false ? [] : [[key, fieldValue(field, v)]];
  });
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${renderKey(k)}: ${renderValue(v, inner, `${path}.${k}`, described)},`).join("\n")}\n${indent}}`;
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

/** How the kinds write outside values into their comment lines. */
const TEXT: SourceText = { literal, key: renderKey, inline: renderInline };

/** A `//` comment of one line: what could end it (a line break, U+2028) or hide text is escaped. */
function comment(text: string): string {
  return `// ${escapeUnsafeText(text)}`;
}

/** The policy's top-level keys, in the schema's order; `prune` says what `false` means, `branch` is the closure for the kind of branch pulled. */
function policyLines(pulled: RenderablePulledConfig, keyOrder: readonly string[], described: Described): string[] {
  const lines: string[] = [];
  for (const [key, value] of policyEntries(pulled.config, keyOrder)) {
    if (key === "branch") {
      const isDefault = pulled.branch.isDefault === true;
      const tuning = tuningOf(value, pulled.branch.name, isDefault);
      if (tuning === undefined) continue;
      // The tuning applies to the kind of branch it was pulled from (default or not), so a preview
      // created from a pulled default branch's file does not inherit its protection.
      const rendered = renderValue(tuning, "  ", "branch", described);
      const [onDefault, onOthers] = isDefault ? [rendered, "{}"] : ["{}", rendered];
      lines.push(`  branch: (t) => (t.isDefault ? ${onDefault} : ${onOthers}),`);
      continue;
    }
    if (key === "prune") lines.push(`  ${comment("false: undeclared items of these kinds are listed as unmanaged when you plan, never deleted; true deletes them.")}`);
    lines.push(`  ${renderKey(key)}: ${renderValue(value, "  ", key, described)},`);
  }
  return lines;
}

/**
 * Renders a pulled branch as `svc.ts` source with what `kinds` (in rank order) own: the policy's
 * keys in the schema's order (`keyOrder`; their descriptor-owned objects as `described` says),
 * then each kind's comment lines.
 */
export function renderPolicySourceWith(kinds: readonly KindPull[], keyOrder: readonly string[], pulled: RenderablePulledConfig): string {
  const lines = [
    comment(`svc.ts pulled from project ${literal(pulled.project.name)} (${pulled.project.id}), branch ${literal(pulled.branch.name)} (${pulled.branch.id}).`),
    'import { defineConfig } from "svc-config/v1";',
    "",
    "export default defineConfig({",
    ...policyLines(pulled, keyOrder, describedBy(kinds)),
    "});",
  ];
  for (const kind of kinds) {
    const said = kind.comments?.(pulled.preview ?? {}, TEXT) ?? [];
    if (said.length > 0) lines.push("", ...said.map(comment));
  }
  return `${lines.join("\n")}\n`;
}
