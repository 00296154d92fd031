/**
 * The functions of a resolved policy: the declared definitions with the branch's overrides, sources
 * against the base directory, defaults filled, the default-branch-only custom-domain rule and no
 * hostname serving two functions. Pure.
 */
import { resolve } from "node:path";
import type { ConfigIssue } from "../../errors/index.js";
import { isRecord } from "../../config/cross-checks.js";
import { formatPath } from "../../config/issues.js";
import { compareCodePoints, sortedEntries } from "../../config/sort.js";
import type { BranchTarget, ResolvedFunction } from "../../model/desired-state.js";
import { FUNCTION_DEFAULTS } from "./fields.js";
import type { DeclaredFunctions, ParsedFunctionDef, ParsedFunctionTuning } from "./policy.js";

/** The branch's overrides of the functions, as the tuning's keys hold them (validated). */
export interface FunctionOverrides {
  functions?: Readonly<Record<string, ParsedFunctionTuning>>;
  preview?: { functions?: Readonly<Record<string, ParsedFunctionTuning>> };
}

/**
 * Issues of the tuning's overrides as the closure returned them: both homes used at once, and an
 * override of a function the policy does not declare.
 */
export function overrideIssues(raw: Readonly<Record<string, unknown>>, declared: DeclaredFunctions): ConfigIssue[] {
  const homes: [string[], unknown][] = [
    [["branch", "functions"], raw.functions],
    [["branch", "preview", "functions"], isRecord(raw.preview) ? raw.preview.functions : undefined],
  ];
  const both: ConfigIssue[] =
    homes.every(([, overrides]) => overrides !== undefined)
      ? [{ path: "branch.preview.functions", message: "declared both as `functions` and `preview.functions`; keep the top-level key" }]
      : [];
  return [
    ...both,
    ...homes.flatMap(([home, overrides]) =>
      isRecord(overrides)
        ? Object.keys(overrides)
            .filter((slug) => !Object.hasOwn(declared.bySlug, slug))
            .map((slug) => ({ path: formatPath([...home, slug]), message: `tuning for undeclared function \`${slug}\`; declare it under \`functions\`` }))
        : [],
    ),
  ];
}

/** The functions with their branch domains, or the hostname-uniqueness issues. */
export type FunctionsResolution = { functions: ResolvedFunction[]; issues: ConfigIssue[]; deprecatedKeys: string[] };

/** Resolves every declared function for `target` with the branch's `overrides`, sorted by slug. */
export function resolveFunctions(
  declared: DeclaredFunctions,
  overrides: FunctionOverrides,
  target: Readonly<BranchTarget>,
  baseDir: string | null,
): FunctionsResolution {
  const fromPreview = overrides.functions === undefined && overrides.preview?.functions !== undefined;
  const bySlug = (fromPreview ? overrides.preview?.functions : overrides.functions) ?? {};
  const overridesHome = fromPreview ? ["branch", "preview", "functions"] : ["branch", "functions"];
  const functions: ResolvedFunction[] = [];
  const owners = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  for (const [slug, fn] of sortedEntries(declared.bySlug)) {
    const override = Object.hasOwn(bySlug, slug) ? bySlug[slug] : undefined;
    const domains = branchDomains(fn, override?.customDomains, target);
    const domainsPath = [...(override?.customDomains === undefined ? declared.home : overridesHome), slug, "customDomains"];
    for (const [index, hostname] of domains.entries()) {
      const owner = owners.get(hostname);
      if (owner === undefined) owners.set(hostname, slug);
      else {
        issues.push({
          path: formatPath([...domainsPath, index]),
          message: `hostname ${hostname} is declared by two functions on this branch: ${owner} and ${slug}`,
        });
      }
    }
    functions.push({
      slug,
      name: fn.name.trim(),
      sourcePath: baseDir === null ? resolve(fn.source) : resolve(baseDir, fn.source),
      env: Object.fromEntries(sortedEntries(fn.env ?? {})),
      runtime: override?.runtime ?? fn.runtime ?? FUNCTION_DEFAULTS.runtime,
      bundler: fn.bundler ?? "esbuild",
      sourcemap: fn.sourcemap ?? false,
      customDomains: [...domains].sort(compareCodePoints),
      ...(fn.dev === undefined ? {} : { dev: { ...fn.dev } }),
      ...(fn.externalPackages === undefined || fn.externalPackages.length === 0 ? {} : { externalPackages: fn.externalPackages.map((p) => ({ ...p })) }),
    });
  }
  return { functions, issues, deprecatedKeys: overrides.preview?.functions === undefined ? [] : ["branch.preview.functions"] };
}

/**
 * Custom domains per branch: a tuning list replaces the static one; otherwise the static list applies
 * only when `target.isDefault === true`.
 */
function branchDomains(fn: ParsedFunctionDef, tuned: readonly string[] | undefined, target: Readonly<BranchTarget>): readonly string[] {
  if (tuned !== undefined) return tuned;
  return target.isDefault === true ? (fn.customDomains ?? []) : [];
}
