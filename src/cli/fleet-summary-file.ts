/**
 * The summary file of one shard of a fleet run (`--out-summary FILE`) and the merge of several
 * (`svc config fleet merge`). A file names its run (command, project, branch glob, selection,
 * flags that change the rows, shard count, a digest of the policy and checks files) and carries
 * a digest of its own content, so the merge refuses files of different runs, a shard given
 * twice or missing, a branch in two shards, and a file edited by hand.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import type { FleetRow } from "./views/fleet-summary.js";
import { shown } from "./views/outside-text.js";

/** What makes two shards parts of one run: every field must be equal. */
export interface FleetRunIdentity {
  command: "plan" | "apply";
  cliVersion: string;
  projectId: string;
  branches: string;
  targets: string[];
  exclude: string[];
  detailedExitcode: boolean;
  shardCount: number;
  /** SHA-256 of the policy file and the checks file, so shards of different commits are told apart. */
  configDigest: string;
}

const jsonErrorSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  requestId: z.string().nullable(),
  hint: z.string().nullable(),
  causes: z.array(z.strictObject({ code: z.string().nullable(), message: z.string() })),
});

const rowSchema = z.strictObject({
  branchId: z.string().min(1),
  branchName: z.string(),
  changes: z.number().int().nonnegative().nullable(),
  conflicts: z.number().int().nonnegative().nullable(),
  result: z.string(),
  exitCode: z.number().int().nonnegative(),
  error: jsonErrorSchema.nullable(),
});

const summarySchema = z.strictObject({
  formatVersion: z.literal(1),
  kind: z.literal("svc-fleet-summary"),
  run: z.strictObject({
    command: z.enum(["plan", "apply"]),
    cliVersion: z.string(),
    projectId: z.string(),
    branches: z.string(),
    targets: z.array(z.string()),
    exclude: z.array(z.string()),
    detailedExitcode: z.boolean(),
    shardCount: z.number().int().positive(),
    configDigest: z.string(),
  }),
  shard: z.number().int().positive(),
  matched: z.number().int().nonnegative(),
  exitCode: z.number().int().nonnegative(),
  rows: z.array(rowSchema),
  digest: z.string(),
});

/** A shard's summary file, as written and read. */
export type FleetSummaryFile = z.infer<typeof summarySchema>;

function digestOf(content: Omit<FleetSummaryFile, "digest">): string {
  return `sha256:${createHash("sha256").update(JSON.stringify(content)).digest("hex")}`;
}

/** The digest of the files that decide a run's plans (the policy, the checks), in the order given. */
export function configDigest(files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) hash.update(readFileSync(file)).update("\u0000");
  return `sha256:${hash.digest("hex")}`;
}

/** The summary file's text for one shard's rows. */
export function renderSummaryFile(input: { run: FleetRunIdentity; shard: number; matched: number; exitCode: number; rows: readonly FleetRow[] }): string {
  const content: Omit<FleetSummaryFile, "digest"> = {
    formatVersion: 1,
    kind: "svc-fleet-summary",
    run: { ...input.run, targets: [...input.run.targets], exclude: [...input.run.exclude] },
    shard: input.shard,
    matched: input.matched,
    exitCode: input.exitCode,
    rows: input.rows.map((r) => ({ ...r })),
  };
  return `${JSON.stringify({ ...content, digest: digestOf(content) }, null, 2)}\n`;
}

function refused(message: string, hint: string): CliError {
  return new CliError(CliErrorCode.SUMMARY_REFUSED, message, { hint });
}

const RERUN = "Use the --out-summary files of one run, unedited, one per shard.";

/** Reads and checks one summary file: its shape and its digest. */
export function readSummaryFile(cwd: string, file: string): FleetSummaryFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(cwd, file), "utf8"));
  } catch (err) {
    throw refused(`${shown(file)} is not a fleet summary: ${shown(err instanceof Error ? err.message : String(err))}.`, "Pass the files --out-summary wrote.");
  }
  const checked = summarySchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const at = issue === undefined ? "" : ` (${issue.path.map(String).join(".") || "the document"}: ${issue.message})`;
    throw refused(`${shown(file)} is not a fleet summary of this svc${shown(at)}.`, "Pass the files --out-summary wrote.");
  }
  const { digest, ...content } = checked.data;
  if (digestOf(content) !== digest) throw refused(`${shown(file)} was changed after svc wrote it: its digest does not match its content.`, RERUN);
  if (content.shard > content.run.shardCount) throw refused(`${shown(file)} says shard ${content.shard} of ${content.run.shardCount}.`, RERUN);
  return checked.data;
}

const IDENTITY_FIELDS = ["command", "cliVersion", "projectId", "branches", "targets", "exclude", "detailedExitcode", "shardCount", "configDigest"] as const;

/** What a merge produced: every row in branch-name order, and what the caller should warn about. */
export interface MergedFleet {
  run: FleetRunIdentity;
  rows: FleetRow[];
  /** How many branches the shards matched, when they agree. */
  matched: number;
  warnings: string[];
}

/**
 * Merges shard summaries into one fleet: the same run in every file, each shard from 1 to the
 * count exactly once, no branch in two shards. Shards that matched different numbers of branches
 * (a branch created or deleted while they ran) merge with a warning.
 */
export function mergeSummaries(files: readonly { name: string; summary: FleetSummaryFile }[]): MergedFleet {
  const first = files[0];
  if (first === undefined) throw refused("fleet merge needs at least one summary file.", "Pass the files --out-summary wrote, one per shard.");
  const seen = new Map<number, string>();
  const branchShard = new Map<string, string>();
  const rows: FleetRow[] = [];
  for (const { name, summary } of files) {
    for (const field of IDENTITY_FIELDS) {
      const a = JSON.stringify(first.summary.run[field]);
      const b = JSON.stringify(summary.run[field]);
      if (a !== b) throw refused(`${shown(first.name)} and ${shown(name)} come from different runs: ${field} differs (${shown(a)} vs ${shown(b)}).`, RERUN);
    }
    const twice = seen.get(summary.shard);
    if (twice !== undefined) throw refused(`${shown(twice)} and ${shown(name)} are both shard ${summary.shard} of ${summary.run.shardCount}.`, RERUN);
    seen.set(summary.shard, name);
    for (const row of summary.rows) {
      const other = branchShard.get(row.branchId);
      if (other !== undefined) throw refused(`branch ${shown(row.branchName)} (${shown(row.branchId)}) is in both ${shown(other)} and ${shown(name)}.`, RERUN);
      branchShard.set(row.branchId, name);
      rows.push(row);
    }
  }
  const count = first.summary.run.shardCount;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw refused(`shard ${missing.join(", ")} of ${count} is missing: the merged table would leave its branches out.`, `Pass all ${count} summary files of the run.`);
  const counts = [...new Set(files.map((f) => f.summary.matched))];
  const warnings = counts.length > 1 ? [`the shards matched different numbers of branches (${counts.join(", ")}): a branch was created or deleted while they ran`] : [];
  rows.sort((a, b) => (a.branchName < b.branchName ? -1 : a.branchName > b.branchName ? 1 : a.branchId < b.branchId ? -1 : 1));
  return { run: first.summary.run, rows, matched: first.summary.matched, warnings };
}
