import type { Change } from "../model/plan.js";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";

/** A reason an apply needs confirmation. */
export interface GateReason {
  kind: "override" | "protected" | "data-loss" | "inferred";
  /** The prompt bullet, e.g. `2 changes override existing settings or delete resources (--update-existing)`. */
  line: string;
  /** The flag (or variable) that grants it. */
  grant: string;
  /** Whether `--yes` grants it. */
  byYes: boolean;
}

/** Flags that grant reasons. */
export interface GateFlags {
  updateExisting: boolean;
  allowProtected: boolean;
  allowDataLoss: boolean;
  yes: boolean;
}

/** What the gate looks at. */
export interface GateInput {
  changes: readonly Change[];
  branchName: string;
  branchProtected: boolean;
  /** The branch came from the default-branch fallback. */
  inferredTarget: boolean;
}

/** The options execution gets once the gate passed. */
export interface Granted {
  updateExisting: boolean;
  allowProtectedBranch: boolean;
  allowDataLoss: boolean;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Every reason this plan needs confirmation for, whether or not a flag grants it. */
export function gateReasons(input: GateInput): GateReason[] {
  const reasons: GateReason[] = [];
  const overriding = input.changes.filter((c) => c.class !== "additive");
  const destructive = input.changes.filter((c) => c.class === "destructive");
  if (overriding.length > 0) {
    reasons.push({
      kind: "override",
      line:
        overriding.length === 1
          ? "1 change overrides a setting or deletes a resource (--update-existing)"
          : `${overriding.length} changes override existing settings or delete resources (--update-existing)`,
      grant: "--update-existing",
      byYes: true,
    });
  }
  if (input.branchProtected) {
    reasons.push({ kind: "protected", line: `branch "${input.branchName}" is protected (--allow-protected)`, grant: "--allow-protected", byYes: true });
  }
  if (destructive.length > 0) {
    reasons.push({
      kind: "data-loss",
      line: `${plural(destructive.length, "change deletes", "changes delete")} stored data: ${destructive.map((c) => c.address).join(", ")} (--allow-data-loss)`,
      grant: "--allow-data-loss",
      byYes: false,
    });
  }
  if (input.inferredTarget) {
    reasons.push({
      kind: "inferred",
      line: `no branch was named; ${input.branchName} is the project's default branch (--branch ${input.branchName} or SVC_BRANCH_ID)`,
      grant: `--branch ${input.branchName}`,
      byYes: false,
    });
  }
  return reasons;
}

/** Whether flags alone grant a reason (the inferred-target guard never is). */
export function grantedByFlags(reason: GateReason, flags: GateFlags): boolean {
  switch (reason.kind) {
    case "override":
      return flags.updateExisting || flags.yes;
    case "protected":
      return flags.allowProtected || flags.yes;
    case "data-loss":
      return flags.allowDataLoss;
    case "inferred":
      return false;
  }
}

/** The confirmation question under the bullets, one entry per printed line. */
export function confirmationQuestion(options: { changeCount: number; branchName: string; branchId: string; projectId: string; reasons: readonly GateReason[] }): string[] {
  return [
    "This apply needs confirmation:",
    ...options.reasons.map((r) => `  - ${r.line}`),
    `Apply ${plural(options.changeCount, "change", "changes")} to ${options.branchName} (${options.branchId}) in ${options.projectId}?`,
  ];
}

/**
 * The `CLI_CONFIRMATION_REQUIRED` error of a run that cannot ask: the hint
 * names the exact missing flags; after `--yes` only the reasons `--yes` cannot grant.
 */
export function confirmationRequired(missing: readonly GateReason[], input: GateInput): CliError {
  const flags = missing.filter((r) => r.kind !== "inferred").map((r) => r.grant);
  const inferred = missing.some((r) => r.kind === "inferred");
  const parts: string[] = [];
  if (flags.length > 0) {
    const overrides = input.changes.filter((c) => c.class !== "additive").length;
    const what = overrides > 0 ? `${plural(overrides, "override change", "override changes")}` : "changes";
    const where = input.branchProtected ? `protected branch "${input.branchName}"` : `branch "${input.branchName}"`;
    parts.push(`add ${flags.join(" ")} to apply ${what} to ${where}`);
  }
  if (inferred) parts.push(`name the branch with --branch ${input.branchName} or SVC_BRANCH_ID (--yes does not waive this)`);
  return new CliError(
    CliErrorCode.CONFIRMATION_REQUIRED,
    `This apply needs confirmation, and this run cannot ask (not an interactive terminal, or --yes given): ${missing.map((r) => r.line).join("; ")}.`,
    { hint: parts.join("; "), details: { missing: missing.map((r) => r.grant) } },
  );
}
