/**
 * Reads what the emulator holds for one branch from its state document (`snapshot`) and
 * compares it with a {@link SoakPolicy}: the soak's independent check that an apply converged,
 * without going through the engine's own reads.
 */
import { z } from "zod";
import type { RunningEmulator } from "../../src/emulator/index.js";
import type { SoakPolicy } from "./random-policy.js";

const DeploymentDoc = z.object({ id: z.number(), status: z.string(), environment: z.record(z.string(), z.string()), zip_sha256: z.string().optional().nullable() });
const BranchDoc = z.object({
  id: z.string(),
  buckets: z.array(z.object({ name: z.string(), access_level: z.string(), inherited: z.boolean().optional() })),
  functions: z.array(z.object({ slug: z.string(), name: z.string(), inherited: z.boolean().optional(), deployments: z.array(DeploymentDoc) })),
  triggers: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      function_slug: z.string(),
      enabled: z.boolean(),
      cron: z.string().optional().nullable(),
      bucket_name: z.string().optional().nullable(),
      prefix: z.string().optional().nullable(),
    }),
  ),
});
const StateDoc = z.object({
  projects: z.array(
    z.object({
      id: z.string(),
      branches: z.array(BranchDoc),
      endpoints: z.array(z.object({ branch_id: z.string(), type: z.string(), max_cu: z.number() })),
    }),
  ),
  domains: z.array(z.object({ domain: z.string(), branch_id: z.string().optional().nullable(), entity_id: z.string().optional().nullable() })),
});

const MARKER = /^SVC_FINGERPRINT_/;

/** What the emulator holds for a branch, in the soak's vocabulary (lists sorted). */
export interface BranchState {
  functions: { slug: string; name: string; status: string; env: Record<string, string>; markers: number }[];
  buckets: { name: string; access: string }[];
  triggers: { name: string; function: string; enabled: boolean; cron?: string; bucket?: string; prefix?: string }[];
  domains: { host: string; function: string }[];
  maxCu: number | undefined;
}

const byKey = <T>(key: (t: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** The branch as the emulator holds it, secrets included (the test compares env values). */
export function readBranchState(emu: RunningEmulator, branchId: string): BranchState {
  const doc = StateDoc.parse(emu.state.snapshot({ secrets: true }));
  const project = doc.projects.find((p) => p.id === emu.projectId);
  const branch = project?.branches.find((b) => b.id === branchId);
  if (project === undefined || branch === undefined) throw new Error(`the emulator has no branch ${branchId} in project ${emu.projectId}`);
  return {
    functions: branch.functions
      .filter((f) => f.inherited !== true)
      .map((f) => {
        const current = f.deployments.at(-1);
        const environment = current?.environment ?? {};
        const env = Object.fromEntries(Object.entries(environment).filter(([k]) => !MARKER.test(k)));
        return { slug: f.slug, name: f.name, status: current?.status ?? "none", env, markers: Object.keys(environment).filter((k) => MARKER.test(k)).length };
      })
      .sort(byKey((f) => f.slug)),
    buckets: branch.buckets.filter((b) => b.inherited !== true).map((b) => ({ name: b.name, access: b.access_level })).sort(byKey((b) => b.name)),
    triggers: branch.triggers
      .map((t) => ({
        name: t.name,
        function: t.function_slug,
        enabled: t.enabled,
        ...(t.cron != null ? { cron: t.cron } : {}),
        ...(t.bucket_name != null ? { bucket: t.bucket_name } : {}),
        ...(t.prefix != null ? { prefix: t.prefix } : {}),
      }))
      .sort(byKey((t) => t.name)),
    domains: doc.domains
      .filter((d) => d.branch_id === branchId)
      .map((d) => ({ host: d.domain, function: d.entity_id ?? "" }))
      .sort(byKey((d) => d.host)),
    maxCu: project.endpoints.find((e) => e.branch_id === branchId && e.type === "read_write")?.max_cu,
  };
}

/** The state a converged branch must hold for `policy` (same shape as {@link readBranchState}). */
export function expectedBranchState(policy: SoakPolicy): BranchState {
  return {
    functions: policy.functions.map((f) => ({ slug: f.slug, name: f.name, status: "completed", env: Object.fromEntries(Object.entries(f.env).filter(([, v]) => v !== "")), markers: 1 })).sort(byKey((f) => f.slug)),
    buckets: policy.buckets.map((b) => ({ name: b.name, access: b.access })).sort(byKey((b) => b.name)),
    triggers: policy.triggers
      .map((t) => ({
        name: t.name,
        function: t.function,
        enabled: t.enabled,
        ...(t.cron !== undefined ? { cron: t.cron } : {}),
        ...(t.bucket !== undefined ? { bucket: t.bucket, prefix: t.prefix ?? "" } : {}),
      }))
      .sort(byKey((t) => t.name)),
    domains: [...policy.domains].sort(byKey((d) => d.host)),
    maxCu: policy.maxCu,
  };
}

/** Names that occur more than once among the branch's triggers and hostnames (duplicates a retry could create). */
export function duplicateNames(state: BranchState): string[] {
  const names = [...state.triggers.map((t) => `trigger.${t.name}`), ...state.domains.map((d) => `domain.${d.host}`), ...state.functions.map((f) => `function.${f.slug}`), ...state.buckets.map((b) => `bucket.${b.name}`)];
  return names.filter((n, i) => names.indexOf(n) !== i);
}
