import type { ApiCustomDomain } from "../../api/platform-api.js";
import type { ExecutionOutcome } from "../../apply/execute-plan.js";
import { type ExecutionContext, type HandlerDetails, branchRef, mutateWithReconcile } from "../../apply/execution-context.js";
import type { KindResult, KindResultInput } from "../../apply/kind-result.js";
import { ErrorCode } from "../../errors/codes.js";
import { PlatformError, isPlatformError } from "../../errors/platform-error.js";
import type { EngineWarning, PushResult } from "../../model/plan.js";
import type { OpOf } from "../../model/planned-change.js";
import { type DomainValues, domainToWire } from "./fields.js";

/** Registers the hostname to the function the change plans. */
async function register(ctx: ExecutionContext, domain: string, planned: DomainValues): Promise<ApiCustomDomain | undefined> {
  const body = domainToWire(domain, planned);
  // A same-owner re-register is a no-op, so an unknown outcome is resolved by resending.
  return mutateWithReconcile(
    ctx,
    () => ctx.api.createCustomDomain({ ...branchRef(ctx), ...body }),
    async () => false,
  );
}

function cnameDetails(record: ApiCustomDomain | undefined): HandlerDetails {
  return record === undefined ? {} : { cnameTarget: record.cname_target };
}

/** `POST …/custom-domains` `{domain, entity_type: "function", entity_id}`, as planned. */
export async function applyDomainCreate(ctx: ExecutionContext, op: OpOf<"domain-create">, planned: DomainValues): Promise<HandlerDetails> {
  return cnameDetails(await register(ctx, op.domain, planned));
}

async function findDomain(ctx: ExecutionContext, domain: string): Promise<ApiCustomDomain | undefined> {
  return (await ctx.request(() => ctx.api.listCustomDomains(branchRef(ctx)))).find((d) => d.domain === domain);
}

/**
 * Moves a hostname: re-reads its owner (no longer the planned previous
 * function → fail, nothing deleted), deletes, registers again. A failed register fails the
 * change with `details.deregistered: true`.
 */
export async function applyDomainReplace(ctx: ExecutionContext, op: OpOf<"domain-replace">, planned: DomainValues): Promise<HandlerDetails> {
  const current = await findDomain(ctx, op.domain);
  if (current === undefined || current.entity_type !== "function" || current.entity_id !== op.previousSlug) {
    const now = current === undefined ? "is no longer registered on this branch" : `owner changed to ${current.entity_type} ${current.entity_id}`;
    throw new PlatformError(ErrorCode.CONFLICT, `hostname ${op.domain}: ${now} since the plan (expected function ${op.previousSlug}); nothing deleted. Run plan again`, {
      details: { domain: op.domain, expectedOwner: op.previousSlug, owner: current?.entity_id ?? null },
    });
  }
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteCustomDomain({ ...branchRef(ctx), domain: op.domain }),
    async () => (await findDomain(ctx, op.domain)) === undefined,
  );
  try {
    return { ...cnameDetails(await register(ctx, op.domain, planned)), previousSlug: op.previousSlug };
  } catch (err) {
    const code = isPlatformError(err) ? err.code : ErrorCode.API_ERROR;
    const why = err instanceof Error ? err.message : String(err);
    throw new PlatformError(code, `hostname ${op.domain} was deregistered from ${op.previousSlug} but registering it for ${planned.entityId} failed: ${why}. Apply again to register it`, {
      details: { domain: op.domain, deregistered: true },
      cause: err,
    });
  }
}

/** `DELETE …/custom-domains/{h}`; 404 counts as success. */
export async function applyDomainDelete(ctx: ExecutionContext, op: OpOf<"domain-delete">): Promise<HandlerDetails> {
  await mutateWithReconcile(
    ctx,
    () => ctx.api.deleteCustomDomain({ ...branchRef(ctx), domain: op.domain }),
    async () => (await findDomain(ctx, op.domain)) === undefined,
  );
  return {};
}

/**
 * Every declared hostname with its function and CNAME target (from this run's register, else the
 * live record), by hostname: those with a blocking conflict and those whose create or replace
 * failed or was skipped are left out.
 */
function declaredDomains({ desired, live, conflicts, outcome }: KindResultInput): NonNullable<PushResult["customDomains"]> {
  const blocked = new Set(conflicts.filter((c) => c.kind === "domain").map((c) => c.identifier));
  const notDone = new Set([...(outcome?.failed ?? []), ...(outcome?.skipped ?? [])].map((f) => f.change.id));
  const applied = new Map((outcome?.applied ?? []).map((a) => [a.id, a]));
  const liveTargets = new Map((live.customDomains ?? []).map((d) => [d.domain, d.cnameTarget]));
  const list: NonNullable<PushResult["customDomains"]> = [];
  for (const fn of desired.functions) {
    for (const domain of fn.customDomains) {
      if (blocked.has(domain)) continue;
      const ids = [`create:domain.${domain}`, `replace:domain.${domain}`];
      if (ids.some((id) => notDone.has(id))) continue;
      const fromApply = ids.map((id) => applied.get(id)?.details?.cnameTarget).find((t) => typeof t === "string");
      const cnameTarget = typeof fromApply === "string" ? fromApply : liveTargets.get(domain);
      list.push({ domain, slug: fn.slug, ...(cnameTarget === undefined ? {} : { cnameTarget }) });
    }
  }
  return list.sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/** `NO_CNAME_TARGET` for hostnames this run registered without a CNAME target. */
function newDomainWarnings(outcome: ExecutionOutcome | undefined): EngineWarning[] {
  return (outcome?.applied ?? [])
    .filter((a) => a.kind === "domain" && a.details?.cnameTarget === "")
    .map((a) => ({ code: "NO_CNAME_TARGET", message: `hostname ${a.identifier} has no CNAME target: the region has no custom-domain front door`, address: a.address }));
}

/** The hostnames in the result (`customDomains`) and the warning of one registered without a target. */
export const domainResult: KindResult = {
  fields: (input) => ({ fields: { customDomains: declaredDomains(input) }, warnings: newDomainWarnings(input.outcome) }),
};
