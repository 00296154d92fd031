import { z } from "zod";
import { KIND_NAMES } from "../../kinds/list.js";

/**
 * The CLI's public JSON document, format version 1, as zod schemas. The same
 * schemas type the renderer, validate real output in tests and produce
 * `docs/plan-format.schema.json` through `z.toJSONSchema`. Adding keys keeps version 1;
 * removing or retyping one raises it.
 */
const json: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]),
);

const source = z.enum(["flag", "env", "env-file", "plan-file", "default"]);

/** An error as the JSON documents carry it. */
export const jsonErrorSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  requestId: z.string().nullable(),
  hint: z.string().nullable(),
  causes: z.array(z.strictObject({ code: z.string().nullable(), message: z.string() })),
});

/** The resolved target; never holds the API key. */
export const jsonTargetSchema = z.strictObject({
  projectId: z.string(),
  projectName: z.string(),
  orgId: z.string().nullable(),
  branchId: z.string(),
  branchName: z.string(),
  branchProtected: z.boolean(),
  branchIsDefault: z.boolean(),
  apiHost: z.string(),
  configPath: z.string(),
  sources: z.strictObject({ projectId: source, branch: source, apiKey: source, apiHost: source }),
});

const fieldSchema = z.strictObject({
  name: z.string(),
  before: json,
  after: json,
  sensitive: z.boolean(),
  names: z.array(z.string()).optional(),
});

const changeSchema = z.strictObject({
  id: z.string(),
  address: z.string(),
  kind: z.enum(KIND_NAMES),
  action: z.enum(["create", "update", "delete", "replace"]),
  class: z.enum(["additive", "override", "destructive"]),
  needs: z.array(z.string()),
  reason: z.string(),
  fields: z.array(fieldSchema),
  dependsOn: z.array(z.string()),
  status: z.enum(["applied", "failed", "skipped"]).optional(),
  error: jsonErrorSchema.nullable().optional(),
});

const conflictSchema = z.strictObject({
  kind: z.string(),
  identifier: z.string(),
  field: z.string(),
  current: json,
  desired: json,
  reason: z.string(),
  code: z.string(),
  blocking: z.boolean(),
  address: z.string(),
  resolution: z.string(),
});

/** The apply outcome part of an apply document. */
export const jsonApplyResultSchema = z.strictObject({
  status: z.enum(["applied", "no-changes", "partial", "failed", "aborted"]),
  durationMs: z.number().int().nonnegative(),
  error: jsonErrorSchema.nullable(),
  outputs: z.array(
    z.strictObject({ address: z.string(), name: z.enum(["invocationUrl", "cnameTarget"]), value: z.string() }),
  ),
});

/** A plan or apply document (`svc config plan --json`, `svc config apply --json`). */
export const planDocumentSchema = z.strictObject({
  formatVersion: z.literal(1),
  command: z.enum(["plan", "apply"]),
  cliVersion: z.string(),
  target: jsonTargetSchema,
  summary: z.strictObject({
    create: z.number().int(),
    update: z.number().int(),
    delete: z.number().int(),
    replace: z.number().int(),
    conflicts: z.number().int(),
    unmanaged: z.number().int(),
  }),
  applyable: z.boolean(),
  requires: z.strictObject({
    updateExisting: z.boolean(),
    allowProtected: z.boolean(),
    allowDataLoss: z.boolean(),
    explicitBranch: z.boolean(),
  }),
  changes: z.array(changeSchema),
  unmanaged: z.array(
    z.strictObject({ address: z.string(), kind: z.string(), reason: z.string(), inherited: z.boolean() }),
  ),
  conflicts: z.array(conflictSchema),
  warnings: z.array(z.strictObject({ code: z.string(), address: z.string().nullable(), message: z.string() })),
  selection: z
    .strictObject({
      targets: z.array(z.string()),
      exclude: z.array(z.string()),
      total: z.number().int(),
      selected: z.number().int(),
      pending: z.array(z.string()),
      pendingConflicts: z.number().int(),
    })
    .optional(),
  verification: z
    .strictObject({
      verified: z.boolean(),
      residual: z.array(z.string()),
      failures: z.array(z.strictObject({ changeId: z.string().nullable(), code: z.string(), message: z.string() })),
      unchecked: z.array(z.strictObject({ changeId: z.string(), reason: z.string() })),
      ms: z.number().int().nonnegative(),
    })
    .optional(),
  checks: z
    .array(
      z.strictObject({
        name: z.string(),
        enforcement: z.enum(["advisory", "mandatory"]),
        violations: z.array(z.strictObject({ address: z.string().nullable(), message: z.string() })),
        error: z.string().nullable(),
      }),
    )
    .optional(),
  result: jsonApplyResultSchema.optional(),
});

/** The document any `--json` command prints when it fails before it has its own document. */
export const errorDocumentSchema = z.strictObject({
  formatVersion: z.literal(1),
  command: z.string(),
  error: jsonErrorSchema,
});

/** A plan or apply document. */
export type PlanDocument = z.infer<typeof planDocumentSchema>;
/** One change of a plan document. */
export type PlanDocumentChange = z.infer<typeof changeSchema>;
/** An error inside a JSON document. */
export type JsonError = z.infer<typeof jsonErrorSchema>;
/** The apply outcome of a document. */
export type JsonApplyResult = z.infer<typeof jsonApplyResultSchema>;
