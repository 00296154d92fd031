/**
 * What `svc dev` prints, as pure functions of plain data: the banner (each function's slug, URL
 * and the names of the variables it gets, never their values) and one line per request. Outside
 * text (paths, names, messages) is escaped here so it cannot break or forge a line.
 */
import { shown } from "../views/outside-text.js";
import type { RequestRecord } from "../../runtime/index.js";

/** One served function in the banner. */
export interface BannerFunction {
  slug: string;
  url: string;
  /** False when its first build or start failed (the error was printed above). */
  serving: boolean;
  /** Names of the variables it gets from the branch and from its own env (no values). */
  envNames: readonly string[];
}

/** What the banner shows. */
export interface BannerData {
  functions: readonly BannerFunction[];
  /** Where the platform variables come from, or why there are none (said once). */
  envSource: string;
  /** Services the policy declares that the branch lacks, and similar notes. */
  notes: readonly string[];
  /** The local Node.js version. */
  nodeVersion: string;
}

/** The banner printed once the functions serve, as lines. */
export function renderBanner(data: BannerData): string[] {
  const width = Math.max(0, ...data.functions.map((f) => f.slug.length)) + 2;
  const lines = [`svc dev: ${data.functions.length} function${data.functions.length === 1 ? "" : "s"} on Node.js ${data.nodeVersion} (the platform runs Node.js 24 on linux/arm64)`];
  for (const fn of data.functions) {
    lines.push(`  ${shown(fn.slug).padEnd(width)}${fn.url}${fn.serving ? "" : "  (not serving yet: see the error above; fix it and save)"}`);
    lines.push(`  ${"".padEnd(width)}env: ${fn.envNames.length === 0 ? "(none)" : fn.envNames.map(shown).join(", ")}`);
  }
  lines.push(shown(data.envSource));
  for (const note of data.notes) lines.push(`note: ${shown(note)}`);
  lines.push("Watching for changes; Ctrl-C stops.");
  return lines;
}

/** `[slug] METHOD path status ms`; a request that closed before any status shows `-`. */
export function renderRequestLine(slug: string, record: RequestRecord): string {
  const status = record.status === 0 ? "-" : String(record.status);
  const ms = record.ms < 10 ? record.ms.toFixed(1) : String(Math.round(record.ms));
  return `[${shown(slug)}] ${shown(record.method)} ${shown(record.path)} ${status} ${ms}ms`;
}

/** Each line of `text` prefixed with `[slug] `, outside text escaped (a stack, a build error). */
export function renderPrefixed(slug: string, text: string): string[] {
  return text.split(/\r?\n/).map((line) => `[${shown(slug)}] ${shown(line)}`);
}
