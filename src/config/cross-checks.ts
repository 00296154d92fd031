/**
 * Static rules that span sections: the deprecated `preview` homes,
 * the built-in Data API provider needing `auth`, and trigger references. They read the raw
 * value defensively, so they are reported even when other parts of the policy are invalid.
 */
import type { ConfigIssue } from "../errors/index.js";
import { formatPath } from "./issues.js";

/**
 * Every cross-section issue of a raw policy object, in path order of the sections; `previewKeys`
 * are the keys that also have a deprecated home under `preview`.
 */
export function crossSectionIssues(policy: Readonly<Record<string, unknown>>, previewKeys: readonly string[]): ConfigIssue[] {
  return [...authIssues(policy), ...previewIssues(policy, previewKeys), ...triggerReferenceIssues(policy)];
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

/** An enabled Data API with the built-in provider needs `auth` on; reported on `auth`. */
function authIssues(policy: Readonly<Record<string, unknown>>): ConfigIssue[] {
  const dataApi = policy.dataApi === true ? {} : policy.dataApi;
  if (!isRecord(dataApi) || dataApi.enabled === false) return [];
  if (dataApi.authProvider !== undefined && dataApi.authProvider !== "builtin") return [];
  const auth = policy.auth;
  const authOff = auth === undefined || auth === false || (isRecord(auth) && auth.enabled === false);
  if (!authOff) return [];
  return [
    {
      path: "auth",
      message: 'the Data API uses the built-in auth provider; set `auth: true` or use `authProvider: "external"`',
    },
  ];
}

/** Trigger `function` and `bucket` must name declared functions and buckets (either home). */
function triggerReferenceIssues(policy: Readonly<Record<string, unknown>>): ConfigIssue[] {
  const triggers = policy.triggers;
  if (!isRecord(triggers)) return [];
  const preview = isRecord(policy.preview) ? policy.preview : {};
  const functions = declaredKeys(policy.functions, preview.functions);
  const buckets = declaredKeys(policy.buckets, preview.buckets);
  const functionSet = new Set(functions);
  const bucketSet = new Set(buckets);
  const issues: ConfigIssue[] = [];
  for (const [name, trigger] of Object.entries(triggers)) {
    if (!isRecord(trigger)) continue;
    const fn = trigger.function;
    if (typeof fn === "string" && !functionSet.has(fn)) {
      issues.push({
        path: formatPath(["triggers", name, "function"]),
        message: `function \`${fn}\` is not declared; declare it under \`functions\`${listOf(functions)}`,
      });
    }
    const bucket = trigger.bucket;
    if (trigger.type === "storage_object_created" && typeof bucket === "string" && !bucketSet.has(bucket)) {
      issues.push({
        path: formatPath(["triggers", name, "bucket"]),
        message: `bucket \`${bucket}\` is not declared; declare it under \`buckets\`${listOf(buckets)}`,
      });
    }
  }
  return issues;
}

function declaredKeys(...homes: unknown[]): string[] {
  return homes.flatMap((home) => (isRecord(home) ? Object.keys(home) : []));
}

function listOf(names: readonly string[]): string {
  if (names.length === 0) return " (none declared)";
  const shown = names.slice(0, 10).map((n) => JSON.stringify(n)).join(", ");
  return ` (declared: ${shown}${names.length > 10 ? ", …" : ""})`;
}

/** Whether `value` is a non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
