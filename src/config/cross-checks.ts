/**
 * Static rules that span sections: the deprecated `preview` homes and each kind's own (`KindPolicy.crossChecks`:
 * the built-in Data API provider needing `auth`, trigger references). They read the raw value
 * defensively, so they are reported even when other parts of the policy are invalid.
 */
import type { ConfigIssue } from "../errors/index.js";
import { compareCodePoints } from "./sort.js";
import type { KindPolicy } from "./schemas/kind-policy.js";

/**
 * Every cross-section issue of a raw policy object, in path order of the sections: the kinds'
 * checks and `previewKeys`, the keys that also have a deprecated home under `preview`.
 */
export function crossSectionIssues(policy: Readonly<Record<string, unknown>>, kinds: readonly KindPolicy[], previewKeys: readonly string[]): ConfigIssue[] {
  const issues = [...kinds.flatMap((kind) => kind.crossChecks?.(policy) ?? []), ...previewIssues(policy, previewKeys)];
  return issues.sort((a, b) => compareCodePoints(sectionOf(a.path), sectionOf(b.path)));
}

/** The top-level key a path starts with (`triggers` of `triggers.t.function`). */
function sectionOf(path: string): string {
  return /^[^.[]*/.exec(path)?.[0] ?? path;
}

/** A deprecated `preview.<key>` home declared next to the top-level key. */
function previewIssues(policy: Readonly<Record<string, unknown>>, previewKeys: readonly string[]): ConfigIssue[] {
  const preview = policy.preview;
  if (!isRecord(preview)) return [];
  return previewKeys.filter((key) => policy[key] !== undefined && preview[key] !== undefined).map((key) => ({
    path: `preview.${key}`,
    message: `declared both as \`${key}\` and \`preview.${key}\`; keep the top-level key`,
  }));
}

/** Whether `value` is a non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
