/** The CLI's fix text for each engine conflict code. */
const RESOLUTION_BY_CODE: Record<string, string> = {
  NO_COMPUTE: "Add a read-write compute endpoint to the branch, or remove compute settings from svc.ts.",
  COMPUTE_PAIR_INVALID: "Declare both autoscaling bounds in svc.ts so that min <= max.",
  TTL_EXPIRES_NOW: "Use a longer ttl in svc.ts, or ttl: false to keep the branch.",
  TTL_DEFAULT_BRANCH: "Remove ttl for the default branch in the branch closure (e.g. t.isDefault ? {} : { ttl: \"7d\" }).",
  SERVICE_DATABASE_MISSING: "Create the database on the branch, or name an existing one in svc.ts.",
  JWKS_URL_REQUIRED: "Set dataApi.jwksUrl in svc.ts for an external auth provider.",
  BUCKET_ACCESS_IMMUTABLE: "Keep the bucket's current access in svc.ts, or use a new bucket name.",
  BUCKET_NOT_EMPTY: "Empty the bucket, keep it in svc.ts, or apply with --allow-data-loss.",
  TRIGGER_TYPE_CHANGED: "Rename the trigger in svc.ts, or delete it on the branch.",
  DOMAIN_FOREIGN_OWNER: "Release the hostname from its current owner, or remove it from svc.ts.",
  DOMAIN_TARGET_UNDEPLOYED: "Deploy the target function first, or point the hostname at a deployed function.",
  STILL_REFERENCED: "Keep it in svc.ts, or first remove what still uses it (named above).",
  FEATURE_UNAVAILABLE: "Remove this resource from svc.ts for this branch, or use a region or plan that offers it.",
  UNKNOWN_ROLE: "Declare the role under roles in svc.ts (or fix the name), or create it on the branch.",
  OVERRIDE_NOT_CONFIRMED: "Apply with --update-existing (or --yes) to override the existing setting.",
};

/**
 * How to resolve a conflict with this code (a generic fix for codes this CLI does not know),
 * naming the policy file the plan came from (`--config infra/app.ts`), never a `svc.ts` that
 * the run did not read.
 */
export function resolutionFor(code: string, configPath = "svc.ts"): string {
  const text = RESOLUTION_BY_CODE[code] ?? "Change svc.ts or the branch so they agree, then run svc config plan again.";
  return configPath === "svc.ts" || configPath === "" ? text : text.replaceAll("svc.ts", configPath);
}
