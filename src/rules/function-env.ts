/**
 * The environment a running function sees, shared by the policy's validation, `svc dev`, the
 * lifecycle hooks and the emulator, so they cannot disagree on a name or on precedence. Each
 * side computes the values from its own records (the API, or the emulator's store); the names,
 * which ones appear when, and the order in which sources override each other live here.
 * Precedence, last wins: the inherited environment (only `svc dev` passes its own), then the
 * platform's variables, then the function's `env` from the policy. Leaf module: no imports.
 */

/** The variables the platform injects, by role. */
export const PLATFORM_ENV = Object.freeze({
  /** Pooled URL of the branch's default database and its owner role. */
  databaseUrl: "DATABASE_URL",
  /** Direct (unpooled) URL of the same database and role. */
  databaseUrlUnpooled: "DATABASE_URL_UNPOOLED",
  /** The branch's name. */
  branch: "SVC_BRANCH",
  authBaseUrl: "SVC_AUTH_BASE_URL",
  authJwksUrl: "SVC_AUTH_JWKS_URL",
  dataApiUrl: "SVC_DATA_API_URL",
  aiGatewayBaseUrl: "SVC_AI_GATEWAY_BASE_URL",
  aiGatewayToken: "SVC_AI_GATEWAY_TOKEN",
  awsAccessKeyId: "AWS_ACCESS_KEY_ID",
  awsSecretAccessKey: "AWS_SECRET_ACCESS_KEY",
  awsEndpointUrlS3: "AWS_ENDPOINT_URL_S3",
  awsRegion: "AWS_REGION",
} as const);

/** The prefix reserved for the platform (and the engine's deployment marker): a policy may not set `SVC_*`. */
export const RESERVED_ENV_PREFIX = "SVC_";

const INJECTED_NAMES: ReadonlySet<string> = new Set(Object.values(PLATFORM_ENV));

/** `SVC_FUNCTION_<SLUG>_URL`: the slug upper-cased, anything but letters and digits as `_`. */
export function functionUrlEnvName(slug: string): string {
  return `SVC_FUNCTION_${slug.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_URL`;
}

/**
 * Why a policy may not set `name` in a function's `env`, or `null` when it may: names starting
 * with `SVC_` (in any case) are reserved, and the platform's injected names are its own.
 */
export function reservedEnvNameIssue(name: string): string | null {
  if (name.toUpperCase().startsWith(RESERVED_ENV_PREFIX)) {
    return `env name ${name} is reserved: names starting with ${RESERVED_ENV_PREFIX} belong to the platform; rename it`;
  }
  if (INJECTED_NAMES.has(name)) {
    return `env name ${name} is set by the platform for every function that has it; rename it (the platform's value is there already)`;
  }
  return null;
}

/** The values a runner found for one function's branch; a missing service leaves its variables out. */
export interface PlatformEnvValues {
  /** The branch's name (`SVC_BRANCH`). */
  branchName: string;
  /** Pooled and direct URLs of the branch's default database and owner role. */
  database?: { pooledUrl: string; directUrl: string };
  /** Auth is enabled on the branch. */
  auth?: { baseUrl: string; jwksUrl: string };
  /** The Data API is enabled on the branch. */
  dataApiUrl?: string;
  /** The AI gateway is enabled; the token only where the runner holds a credential for it. */
  aiGateway?: { baseUrl: string; token?: string };
  /** The branch has buckets and the runner offers object storage: credentials scoped to the branch. */
  objectStorage?: { accessKeyId: string; secretAccessKey: string; endpointUrl: string; region: string };
  /** Base URLs of the branch's functions by slug; the function's own is left out. */
  functionUrls?: Readonly<Record<string, string>>;
}

/** Builds a record without a prototype, so a name like `__proto__` is an ordinary key. */
function emptyRecord(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/** The platform's variables for function `slug` (its own URL is not among them). */
export function platformEnvironment(values: PlatformEnvValues, slug: string): Record<string, string> {
  const env = emptyRecord();
  if (values.database !== undefined) {
    env[PLATFORM_ENV.databaseUrl] = values.database.pooledUrl;
    env[PLATFORM_ENV.databaseUrlUnpooled] = values.database.directUrl;
  }
  env[PLATFORM_ENV.branch] = values.branchName;
  if (values.auth !== undefined) {
    env[PLATFORM_ENV.authBaseUrl] = values.auth.baseUrl;
    env[PLATFORM_ENV.authJwksUrl] = values.auth.jwksUrl;
  }
  if (values.dataApiUrl !== undefined) env[PLATFORM_ENV.dataApiUrl] = values.dataApiUrl;
  if (values.aiGateway !== undefined) {
    env[PLATFORM_ENV.aiGatewayBaseUrl] = values.aiGateway.baseUrl;
    if (values.aiGateway.token !== undefined) env[PLATFORM_ENV.aiGatewayToken] = values.aiGateway.token;
  }
  if (values.objectStorage !== undefined) {
    env[PLATFORM_ENV.awsAccessKeyId] = values.objectStorage.accessKeyId;
    env[PLATFORM_ENV.awsSecretAccessKey] = values.objectStorage.secretAccessKey;
    env[PLATFORM_ENV.awsEndpointUrlS3] = values.objectStorage.endpointUrl;
    env[PLATFORM_ENV.awsRegion] = values.objectStorage.region;
  }
  for (const other of Object.keys(values.functionUrls ?? {}).sort()) {
    const url = values.functionUrls?.[other];
    if (other !== slug && url !== undefined && url !== "") env[functionUrlEnvName(other)] = url;
  }
  return env;
}

/** The sources of {@link functionEnvironment}, lowest precedence first. */
export interface FunctionEnvironmentSources {
  /** The runner's own environment (only `svc dev` passes one). @default none */
  inherited?: Readonly<Record<string, string | undefined>>;
  /** The platform's variables ({@link platformEnvironment}). */
  platform: Readonly<Record<string, string>>;
  /** The function's `env` from the policy or its deployment; `""` removes the variable. */
  own: Readonly<Record<string, string>>;
}

/** The whole environment of a function: inherited, then platform, then its own (last wins). */
export function functionEnvironment(sources: FunctionEnvironmentSources): Record<string, string> {
  const env = emptyRecord();
  for (const [name, value] of Object.entries(sources.inherited ?? {})) if (value !== undefined) env[name] = value;
  for (const [name, value] of Object.entries(sources.platform)) env[name] = value;
  for (const [name, value] of Object.entries(sources.own)) {
    if (value === "") delete env[name];
    else env[name] = value;
  }
  return env;
}
