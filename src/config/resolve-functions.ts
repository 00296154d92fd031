/**
 * Functions of the resolved policy: sources against the base directory,
 * defaults, the default-branch-only custom-domain rule and cross-function hostname uniqueness.
 */
import { FUNCTION_DEFAULTS } from "../kinds/function/fields.js";
import { isAbsolute, resolve } from "node:path";
import type { ConfigIssue } from "../errors/index.js";
import type { EvaluatedTuning } from "./evaluate-branch.js";
import { formatPath } from "./issues.js";
import type { BranchTarget, ResolvedFunction } from "../model/desired-state.js";
import type { ParsedFunctionDef } from "../kinds/function/policy.js";
import { compareCodePoints, sortedEntries } from "./sort.js";

/** The declared functions and the path segments of their home (`functions` or `preview.functions`). */
export interface DeclaredFunctions {
  bySlug: Readonly<Record<string, ParsedFunctionDef>>;
  home: readonly string[];
}

/** Issues of relative sources when there is no base directory to resolve them against. */
export function sourceIssues(declared: DeclaredFunctions, baseDir: string | null): ConfigIssue[] {
  if (baseDir !== null) return [];
  return sortedEntries(declared.bySlug)
    .filter(([, fn]) => !isAbsolute(fn.source))
    .map(([slug]) => ({
      path: formatPath([...declared.home, slug, "source"]),
      message: "relative source needs a base directory; load the policy with loadConfigFromFile or pass baseDir",
    }));
}

/** The functions with their branch domains, or the hostname-uniqueness issues. */
export type FunctionsResolution = { functions: ResolvedFunction[]; issues: ConfigIssue[] };

/** Resolves every declared function for `target`, sorted by slug. */
export function resolveFunctions(
  declared: DeclaredFunctions,
  evaluated: EvaluatedTuning,
  target: Readonly<BranchTarget>,
  baseDir: string | null,
): FunctionsResolution {
  const functions: ResolvedFunction[] = [];
  const owners = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  for (const [slug, fn] of sortedEntries(declared.bySlug)) {
    const override = evaluated.functions[slug];
    const domains = branchDomains(fn, override?.customDomains, target);
    const domainsPath = [...(override?.customDomains === undefined ? declared.home : evaluated.functionsHome), slug, "customDomains"];
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
  return { functions, issues };
}

/**
 * Custom domains per branch: a tuning list replaces the static one; otherwise the static list applies
 * only when `target.isDefault === true`.
 */
function branchDomains(
  fn: ParsedFunctionDef,
  tuned: readonly string[] | undefined,
  target: Readonly<BranchTarget>,
): readonly string[] {
  if (tuned !== undefined) return tuned;
  return target.isDefault === true ? (fn.customDomains ?? []) : [];
}
