import { readBranchPostgres, renderBranchPostgresText, type BranchPostgres } from "../branch-postgres.js";
import { readBranchServices, renderServicesText, type BranchServices } from "../branch-services.js";
import type { CommandContext } from "../context.js";
import type { PulledBranchConfig } from "../../v1.js";
import type { TargetFlags } from "../target.js";
import { stringifyDocument } from "../views/json-plan.js";
import { echoInfo, loadEnv, printEcho, resolveTarget, viewTarget, type Target } from "./target-setup.js";
import { printedLines, type Printed } from "../views/outside-text.js";

/** Flags of `svc config status`. */
export interface StatusFlags extends TargetFlags {
  json?: boolean;
  env?: string[];
}

/** The object the pulled branch closure returns for this branch. */
export function pulledBranchTuning(pulled: PulledBranchConfig): unknown {
  const closure = pulled.config.branch;
  if (typeof closure !== "function") return {};
  const b = pulled.branch;
  return (closure as (t: object) => unknown)(
    Object.freeze({ name: b.name, id: b.id, exists: true, isDefault: b.isDefault, isProtected: b.protected, ...(b.expiresAt === undefined ? {} : { expiresAt: b.expiresAt }) }),
  ) ?? {};
}

function onOff(value: unknown): string {
  return value === undefined || value === false ? "off" : "on";
}

/** The human status. Secrets never appear: credentials are only counted. */
export function renderStatusText(pulled: PulledBranchConfig, services: BranchServices, postgres: BranchPostgres): Printed {
  const p = pulled.project;
  const b = pulled.branch;
  const preview = pulled.preview ?? { buckets: [], functions: [], credentials: [] };
  const lines = [
    "Project",
    `  id        ${p.id}`,
    `  name      ${p.name}`,
    `  region    ${p.region}`,
    `  postgres  ${p.pgVersion}`,
    `  org       ${p.orgId ?? "(personal)"}`,
    "Branch",
    `  name      ${b.name}`,
    `  id        ${b.id}`,
    `  parent    ${b.parent ?? "(none)"}`,
    `  default   ${b.isDefault ? "yes" : "no"}`,
    `  protected ${b.protected ? "yes" : "no"}`,
    `  expires   ${b.expiresAt ?? "never"}`,
    ...renderBranchPostgresText(postgres),
    "Services",
    `  auth      ${onOff(pulled.config.auth)}`,
    `  data API  ${onOff(pulled.config.dataApi)}`,
    ...renderServicesText(services),
    `Buckets (${preview.buckets.length})`,
    ...preview.buckets.map((bk) => `  ${bk.name} (${bk.access})`),
    `Credentials issued: ${preview.credentials.length}`,
  ];
  return printedLines(lines);
}

function statusTarget(target: Target): object {
  const { configPath: _omitted, ...rest } = viewTarget(target, "");
  return rest;
}

/** `svc config status`: `inspect` of the live branch; read-only, never evaluates `svc.ts`. */
export async function runStatus(ctx: CommandContext, flags: StatusFlags): Promise<number> {
  const engine = await ctx.engine();
  const origins = loadEnv(ctx, flags);
  const target = await resolveTarget(ctx, engine, flags, origins);
  printEcho(ctx, echoInfo(target, undefined), flags.json === true);
  const ids = { projectId: target.project.id, branchId: target.branch.id };
  const [pulled, services, postgres] = await Promise.all([
    engine.inspect({ ...ids, api: target.api, signal: ctx.signal, onEvent: ctx.requestLog() }),
    readBranchServices(target.api, ids),
    readBranchPostgres(target.api, ids),
  ]);
  if (flags.json === true) {
    const { auth, dataApi } = pulled.config;
    const doc = {
      formatVersion: 1,
      command: "status",
      target: statusTarget(target),
      project: pulled.project,
      branch: pulled.branch,
      config: { ...(auth === undefined ? {} : { auth }), ...(dataApi === undefined ? {} : { dataApi }), branch: pulledBranchTuning(pulled) },
      preview: pulled.preview ?? null,
      ...services,
      ...postgres,
    };
    ctx.out(stringifyDocument(doc));
    ctx.documentPrinted = true;
  } else {
    ctx.out(renderStatusText(pulled, services, postgres));
  }
  return 0;
}
