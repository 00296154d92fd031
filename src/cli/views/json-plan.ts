import { printedDocument, type Printed } from "./outside-text.js";
import type { Change, PushResult } from "../../model/plan.js";
import type { JsonApplyResult, JsonError, PlanDocument, PlanDocumentChange } from "./json-schema.js";
import { changeFields, conflictSides, flagsForClass } from "./plan-fields.js";
import { selectionDocument, verificationDocument } from "./plan-notes.js";
import { checksDocument } from "./checks-view.js";
import { resolutionFor } from "./resolutions.js";
import { conflictAddress, sortedUnmanaged } from "./text-plan.js";
import type { ViewTarget } from "./view-model.js";
import { KIND_LIST } from "../../kinds/list.js";

/** The apply outcome a document adds (`command: "apply"`). */
export interface ApplyOutcome {
  status: JsonApplyResult["status"];
  durationMs: number;
  error: JsonError | null;
  /** Per change id: the error of a failed change. */
  changeErrors?: Record<string, JsonError>;
}

/** What an apply needs beyond the plan: flags and an explicit branch. */
export function requirementsOf(result: PushResult, target: ViewTarget): PlanDocument["requires"] {
  return {
    updateExisting: result.changes.some((c) => c.class !== "additive"),
    allowProtected: target.branchProtected,
    allowDataLoss: result.changes.some((c) => c.class === "destructive"),
    explicitBranch: target.sources.branch === "default",
  };
}

function statusOf(result: PushResult, change: Change): PlanDocumentChange["status"] {
  if (result.failed.some((f) => f.change.id === change.id)) return "failed";
  if (!result.dryRun && result.applied.some((a) => a.id === change.id)) return "applied";
  return "skipped";
}

function toChange(change: Change, result: PushResult, outcome: ApplyOutcome | undefined): PlanDocumentChange {
  const doc: PlanDocumentChange = {
    id: change.id,
    address: change.address,
    kind: change.kind,
    action: change.action,
    class: change.class,
    needs: flagsForClass(change.class),
    reason: change.reason,
    fields: changeFields(change),
    dependsOn: [...change.dependsOn],
  };
  if (outcome !== undefined) {
    const status = outcome.status === "aborted" && result.applied.length === 0 ? "skipped" : statusOf(result, change);
    doc.status = status;
    doc.error = outcome.changeErrors?.[change.id] ?? null;
  }
  return doc;
}

/** Outputs worth printing after an apply (function URLs, CNAME targets): each kind's, in rank order. */
export function outputsOf(result: PushResult): JsonApplyResult["outputs"] {
  return KIND_LIST.flatMap((kind) => kind.outputs?.(result) ?? []);
}

/**
 * The versioned JSON document of a plan or an apply: keys in the documented
 * order, arrays in text order, secrets replaced by `"(sensitive)"`.
 */
export function buildPlanDocument(options: {
  command: "plan" | "apply";
  cliVersion: string;
  target: ViewTarget;
  result: PushResult;
  outcome?: ApplyOutcome;
}): PlanDocument {
  const { command, cliVersion, target, result, outcome } = options;
  const replace = result.changes.filter((c) => c.action === "replace").length;
  const doc: PlanDocument = {
    formatVersion: 1,
    command,
    cliVersion,
    target: { ...target, sources: { ...target.sources } },
    summary: {
      create: result.summary.create,
      update: result.summary.update,
      delete: result.summary.delete,
      replace,
      conflicts: result.summary.conflicts,
      unmanaged: result.unmanaged.length,
    },
    applyable: !result.conflicts.some((c) => c.blocking),
    requires: requirementsOf(result, target),
    changes: result.changes.map((c) => toChange(c, result, outcome)),
    unmanaged: sortedUnmanaged(result.unmanaged).map((e) => ({
      address: e.address,
      kind: e.kind,
      reason: e.reason,
      inherited: e.inherited === true,
    })),
    conflicts: result.conflicts.map((c) => ({
      kind: c.kind,
      identifier: c.identifier,
      field: c.field,
      ...conflictSides(c),
      reason: c.reason,
      code: c.code,
      blocking: c.blocking,
      address: conflictAddress(c),
      resolution: resolutionFor(c.code, target.configPath),
    })),
    warnings: result.warnings.map((w) => ({ code: w.code, address: w.address ?? null, message: w.message })),
  };
  const selection = selectionDocument(result);
  if (selection !== undefined) doc.selection = selection;
  const verification = verificationDocument(result);
  if (verification !== undefined) doc.verification = verification;
  const checks = checksDocument(result);
  if (checks !== undefined) doc.checks = checks;
  if (outcome !== undefined) {
    doc.result = {
      status: outcome.status,
      durationMs: Math.max(0, Math.round(outcome.durationMs)),
      error: outcome.error,
      outputs: outcome.status === "no-changes" ? [] : outputsOf(result),
    };
  }
  return doc;
}

/** Serialises a document: 2-space indent, trailing newline. */
export function stringifyDocument(doc: unknown): Printed {
  return printedDocument(`${JSON.stringify(doc, null, 2)}\n`);
}
