/**
 * What every kind's normalisation shares (timestamps in RFC 3339 UTC, cron whitespace collapsed,
 * sorting by identifier in code points) and the project and branch-target parts of the live
 * state; each kind normalises its own records in `kinds/<kind>/read.ts`. Pure.
 */
import type { ApiBranch, ApiProject } from "../api/wire-types.js";
import type { BranchTarget } from "../model/desired-state.js";
import type { LiveState } from "../model/live-state.js";
import { defaultComputeOf } from "../kinds/compute/read.js";

/** An RFC 3339 timestamp in UTC with `Z`, fractional seconds only when present; unreadable text kept. */
export function normalizeTimestamp(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

/** A cron expression with whitespace collapsed to single spaces. */
export function normalizeCron(value: string): string {
  return value.trim().split(/\s+/).join(" ");
}

/** The project part of the live state. */
export function normalizeProject(project: ApiProject): LiveState["project"] {
  return {
    id: project.id,
    name: project.name,
    regionId: project.region_id,
    pgVersion: project.pg_version,
    ...(project.org_id === undefined ? {} : { orgId: project.org_id }),
    defaultCompute: defaultComputeOf(project),
  };
}

/** The branch part of the live state. */
export function normalizeBranch(branch: ApiBranch): LiveState["branch"] {
  return {
    id: branch.id,
    name: branch.name,
    ...(branch.parent_id === undefined ? {} : { parentId: branch.parent_id }),
    createdAt: normalizeTimestamp(branch.created_at),
    ...(branch.expires_at === undefined ? {} : { expiresAt: normalizeTimestamp(branch.expires_at) }),
    protected: branch.protected,
    isDefault: branch.default,
  };
}

/** What a branch closure is called with for an existing branch. */
export function branchTargetOf(branch: LiveState["branch"]): BranchTarget {
  return {
    name: branch.name,
    id: branch.id,
    exists: true,
    ...(branch.parentId === undefined ? {} : { parentId: branch.parentId }),
    isDefault: branch.isDefault,
    isProtected: branch.protected,
    ...(branch.expiresAt === undefined ? {} : { expiresAt: branch.expiresAt }),
    createdAt: branch.createdAt,
  };
}

/** Code-point order, independent of locale. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `items` sorted in place by `key` (code points). */
export function sortBy<T>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => compareCodePoints(key(a), key(b)));
}

/** The names of `records`, sorted (code points). */
export function sortedNames(records: readonly { name: string }[]): string[] {
  return records.map((r) => r.name).sort(compareCodePoints);
}
