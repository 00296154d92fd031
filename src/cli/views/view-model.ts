import type { PushResult } from "../../model/plan.js";

/** Where a target value came from (`target.sources` in the JSON document). */
export type ValueSource = "flag" | "env" | "env-file" | "plan-file" | "default";

/** The resolved target the views print next to a plan. Never holds the API key. */
export interface ViewTarget {
  projectId: string;
  projectName: string;
  orgId: string | null;
  branchId: string;
  branchName: string;
  branchProtected: boolean;
  branchIsDefault: boolean;
  apiHost: string;
  /** Relative to the working directory, `/` separators. */
  configPath: string;
  sources: { projectId: ValueSource; branch: ValueSource; apiKey: ValueSource; apiHost: ValueSource };
}

/** Terminal styling; every function is the identity when colour is off. */
export interface Style {
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  magenta(text: string): string;
  boldRed(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const identity = (text: string): string => text;

/** A style that adds nothing: the same symbols and words, no colour. */
export const PLAIN_STYLE: Style = {
  green: identity,
  yellow: identity,
  red: identity,
  magenta: identity,
  boldRed: identity,
  bold: identity,
  dim: identity,
};

function sgr(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

/** ANSI colours: green create, yellow update, red delete, magenta replace, bold red conflict. */
export const COLOR_STYLE: Style = {
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  red: sgr(31, 39),
  magenta: sgr(35, 39),
  boldRed: (text) => `\u001b[1m\u001b[31m${text}\u001b[39m\u001b[22m`,
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};

/** Whether a result holds a blocking conflict. */
export function hasBlockingConflict(result: PushResult): boolean {
  return result.conflicts.some((c) => c.blocking);
}

/** The line printed instead of a plan when there is nothing to do. */
export function noChangesLine(branchName: string, configPath = "svc.ts"): string {
  return `No changes. Branch ${branchName} matches ${configPath}.`;
}

/** The summary line scripts match on; the words never change. */
export function summaryLine(result: PushResult): string {
  const s = result.summary;
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete; ${s.conflicts} conflicts`;
}
