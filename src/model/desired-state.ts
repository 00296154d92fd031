/**
 * The resolved policy: the static part plus one branch's tuning, validated, defaults filled,
 * collections sorted by key (docs/policy.md#the-branch-closure). Produced by `resolvePolicy`, read by the diff.
 */
import type { DesiredSlices, KindBranchSettings, KindPruneFlags, KindResolvedFields } from "../kinds/index.js";

/** What a branch closure is called with (docs/policy.md#the-branch-closure). Frozen. */
export interface BranchTarget {
  /** The branch name (the new name for `createBranch`). */
  name: string;
  /** The live branch id; absent for `createBranch`. */
  id?: string;
  /** `false` for `createBranch`, or when the caller passes `branchExists: false`. */
  exists: boolean;
  parentId?: string;
  isDefault?: boolean;
  isProtected?: boolean;
  /** RFC 3339, when the branch has an expiry. */
  expiresAt?: string;
  /** RFC 3339. */
  createdAt?: string;
}

/**
 * What a bundler is given: the resolved function plus `source`, the absolute entry file
 * found by the entry search (`index.ts` → `index.js` → `index.mjs` for a directory).
 */
export interface ResolvedFunctionConfig extends ResolvedFunction {
  /** Absolute path of the entry file. */
  source: string;
}

/**
 * A custom per-function bundler declared in the policy: returns archive paths (relative POSIX,
 * no `..`) mapped to contents; must include `index.mjs` or `index.js` at the root.
 */
export type FileBundler = (fn: ResolvedFunctionConfig) => Promise<Record<string, Uint8Array | string>>;

/** One function of the resolved policy. */
export interface ResolvedFunction {
  slug: string;
  /** Display name, trimmed. */
  name: string;
  /** Absolute file or directory, as declared (resolved against the policy's directory). */
  sourcePath: string;
  /** A copy of the declared env; `""` deletes that variable from the deployed function. */
  env: Record<string, string>;
  runtime: "nodejs24";
  bundler: "esbuild" | "none" | FileBundler;
  sourcemap: boolean;
  /** Normalised, sorted hostnames on this branch; `[]` = none. */
  customDomains: string[];
  dev?: { port?: number };
  /** Packages esbuild leaves external, in declaration order; absent when none are declared. */
  externalPackages?: ResolvedExternalPackage[];
}

/** A package a function ships unbundled (`externalPackages`), normalised. */
export interface ResolvedExternalPackage {
  /** The npm package name, e.g. `@node-rs/argon2`. */
  name: string;
  /** Whether the bundle stages the package's files under `node_modules/` (else it is only external). */
  includeFiles: boolean;
}

/** The fully resolved desired state of one branch; the kinds' own fields (`buckets`, `roles`, …) come from their folders. */
export interface ResolvedPolicy extends KindResolvedFields {
  target: Readonly<BranchTarget>;
  /** Absolute base directory of relative sources, or null when there is none. */
  baseDir: string | null;
  /** Every flag resolved; `roles` and `databases` are set only by name (`prune: true` leaves them off). @default false each */
  prune: { [F in keyof KindPruneFlags]-?: boolean };
  /**
   * The kinds whose prune flag the policy states (`true` or `false`; `prune: false` states the four
   * that `prune: true` sets). A plan reads a stated kind even when the policy declares none of it,
   * so its undeclared items are listed as unmanaged (a pulled `svc.ts` states them).
   */
  pruneStated: { [F in keyof KindPruneFlags]-?: boolean };
  /** `parent` and the settings the kinds' tunings set on the branch (fact `resolvedBranch`). */
  branch: { parent?: string } & KindBranchSettings;
  /** Deprecated keys used, e.g. `preview.functions`, `branch.preview.functions`. */
  deprecatedKeys: string[];
  /** The slices of the kinds that resolve their own part of the branch tuning (`readReplicas`, …), by kind; absent when none declares anything. */
  kinds?: DesiredSlices;
}

/** The database the Data API and auth attach to when the policy names none. */
export const DEFAULT_SERVICE_DATABASE = "neondb";

/** The database the auth integration and the Data API live on. */
export function serviceDatabase(desired: ResolvedPolicy): string {
  return desired.dataApi.state === "enabled" ? desired.dataApi.database : DEFAULT_SERVICE_DATABASE;
}
