import { printedLines, type Printed } from "./outside-text.js";

/** What the target echo shows; never the key itself. */
export interface EchoInfo {
  project: { id: string; name?: string; label: string };
  branch?: { name: string; id?: string; protected?: boolean; isDefault?: boolean; label: string };
  api: { host: string; label: string; insecure: boolean };
  config?: { path: string; label: string };
  /** Where the key came from; the key itself is never shown. */
  keyLabel?: string;
}

/** Width of the value column, unless a value is longer (then every label moves right with it). */
const VALUE_WIDTH = 38;

function branchValue(branch: NonNullable<EchoInfo["branch"]>): string {
  const flags = [branch.protected ? "protected" : undefined, branch.isDefault ? "default" : undefined].filter((f) => f !== undefined);
  const id = branch.id === undefined ? "" : ` (${branch.id})`;
  return `${branch.name}${id}${flags.length > 0 ? `, ${flags.join(", ")}` : ""}`;
}

/** The multi-line echo for text mode. */
export function renderTargetBlock(info: EchoInfo): Printed {
  const rows: [string, string, string][] = [["Project", info.project.name === undefined ? info.project.id : `${info.project.id} (${info.project.name})`, info.project.label]];
  if (info.branch !== undefined) rows.push(["Branch", branchValue(info.branch), info.branch.label]);
  rows.push(["API", info.api.host, info.api.insecure ? `${info.api.label}] [INSECURE` : info.api.label]);
  if (info.config !== undefined) rows.push(["Config", info.config.path, info.config.label]);
  if (info.keyLabel !== undefined) rows.push(["Key", "set", info.keyLabel]);
  const width = Math.max(VALUE_WIDTH, ...rows.map(([, value]) => value.length + 1));
  return printedLines(rows.map(([title, value, label]) => `${title.padEnd(9)}${value.padEnd(width)} [${label}]`.trimEnd()));
}

/** The one-line echo for `--json`, `--markdown` and `--quiet`. */
export function renderTargetLine(info: EchoInfo): Printed {
  const parts = [`project ${info.project.id}`];
  if (info.branch !== undefined) parts.push(`branch ${branchValue(info.branch)}`);
  parts.push(`api ${info.api.host}${info.api.insecure ? " [INSECURE]" : ""}`);
  return printedLines([`Target: ${parts.join(", ")}`]);
}
