/**
 * `svc-config/vite`: a Vite plugin that provisions a claimable Postgres database
 * on the first dev-server start when the key is missing. Inactive for builds, preview and test
 * runners; never exposes the connection string to client code; logs through Vite's logger.
 */
import path from "node:path";
import type { Logger, Plugin } from "vite";
import { ErrorCode, PlatformError } from "../errors/index.js";
import { isPlatformError } from "../errors/platform-error.js";
import { envKeys } from "../instant/env-file.js";
import { isGitIgnored, notIgnoredWarning } from "../instant/git-ignore.js";
import { instantPostgres as provisionDatabase, type InstantPostgresResult } from "../instant/instant-postgres.js";
import { withFileLock } from "./cross-process-lock.js";
import { assertNoLeak, envPrefixes, isActive, keyIsPresent, viteEnvFiles } from "./need-check.js";

/** Options of the plugin. */
export interface InstantPostgresPluginOptions {
  /** Names the app; required, non-empty. */
  referrer: string;
  /** Env file, resolved against Vite's `envDir`. @default ".env" */
  dotEnvFile?: string;
  /** @default "DATABASE_URL" */
  dotEnvKey?: string;
  /** Prefix of the claim URL variable. @default the first entry of Vite's `envPrefix` */
  envPrefix?: string;
  /** A SQL file to seed the database with, relative to Vite's `root`. */
  seed?: { type: "sql-script"; path: string };
}

interface LogLine {
  readonly level: "info" | "warn" | "error";
  readonly text: string;
}

/** Provisioning promises per absolute env file: config reloads reuse them (at most once per process). */
const provisioning = new Map<string, Promise<LogLine[]>>();

const TAG = "[svc-config]";

function describe(err: unknown): string {
  if (!isPlatformError(err)) return `${TAG} could not create a claimable Postgres database: ${err instanceof Error ? err.message : String(err)}. The dev server runs without one.`;
  const hint = typeof err.details?.["hint"] === "string" ? ` hint: ${err.details["hint"]}` : "";
  return `${TAG} could not create a claimable Postgres database: ${err.code}: ${err.message}${hint} The dev server runs without one.`;
}

function successLines(result: InstantPostgresResult, display: string, keys: ReturnType<typeof envKeys>, ignored: boolean | null): LogLine[] {
  const lines: LogLine[] = [
    { level: "info", text: `${TAG} Created a claimable Postgres database; wrote ${keys.url} (pooled), ${keys.direct} (direct) and ${keys.claimUrl} to ${display}.` },
    { level: "info", text: `${TAG} It expires ${result.claimExpiresAt.toISOString()} unless claimed: ${result.claimUrl}` },
  ];
  for (const warning of result.warnings) lines.push({ level: "warn", text: `${TAG} warning: ${warning}` });
  if (ignored === false) lines.push({ level: "warn", text: `${TAG} warning: ${notIgnoredWarning(display)}` });
  return lines;
}

function setUnset(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) if (process.env[name] === undefined) process.env[name] = value;
}

/**
 * The plugin. Throws at construction when `referrer` is missing or empty; throws from the config
 * hook only for configuration errors (the leak guard, invalid names); every provisioning failure
 * is logged and the dev server keeps starting.
 */
export function instantPostgres(options: InstantPostgresPluginOptions): Plugin {
  if (typeof options?.referrer !== "string" || options.referrer.trim() === "") {
    throw new PlatformError(ErrorCode.INSTANT_INVALID_OPTIONS, "svc-config/vite: instantPostgres({ referrer }) needs a non-empty referrer naming your app");
  }
  const key = options.dotEnvKey ?? "DATABASE_URL";
  let pending: Promise<LogLine[]> | null = null;
  let logged = false;
  return {
    name: "svc-config:instant-postgres",
    enforce: "pre",
    async config(userConfig, env) {
      if (!isActive(env, process.env)) return;
      const prefixes = envPrefixes(userConfig.envPrefix);
      assertNoLeak(key, prefixes);
      const prefix = options.envPrefix ?? prefixes[0] ?? "VITE_";
      const keys = envKeys(key, prefix);
      const root = path.resolve(userConfig.root ?? process.cwd());
      const envDir = userConfig.envDir === false || userConfig.envDir === undefined ? root : path.resolve(root, userConfig.envDir);
      const display = options.dotEnvFile ?? ".env";
      const file = path.resolve(envDir, display);
      const files = [...viteEnvFiles(envDir, env.mode), file];
      if (await keyIsPresent(key, process.env, files)) return;
      let promise = provisioning.get(file);
      if (promise === undefined) {
        const run = async (): Promise<LogLine[]> => {
          const locked = await withFileLock(`${file}.svc-lock`, async () => {
            if (await keyIsPresent(key, process.env, files)) return [];
            const result = await provisionDatabase({
              referrer: options.referrer,
              dotEnvFile: file,
              dotEnvKey: key,
              envPrefix: prefix,
              ...(options.seed !== undefined ? { seed: { type: options.seed.type, path: path.resolve(root, options.seed.path) } } : {}),
              ...((process.env["SVC_CLAIM_API_HOST"] ?? "") !== "" ? { apiHost: process.env["SVC_CLAIM_API_HOST"] } : {}),
            });
            setUnset({ [keys.url]: result.databaseUrl, [keys.direct]: result.databaseUrlDirect, [keys.claimUrl]: result.claimUrl });
            return successLines(result, display, keys, await isGitIgnored(file));
          });
          if (!locked.acquired) return [{ level: "warn", text: `${TAG} another process held ${display}.svc-lock for 60 s; not creating a database. Remove the lock file if no process is using it.` }];
          return locked.value;
        };
        promise = run().catch((err: unknown) => {
          if (isPlatformError(err) && err.code === ErrorCode.INSTANT_INVALID_OPTIONS) throw err;
          return [{ level: "error", text: describe(err) }];
        });
        provisioning.set(file, promise);
      }
      pending = promise;
      await promise;
    },
    async configResolved(config) {
      if (pending === null || logged) return;
      logged = true;
      const logger: Logger = config.logger;
      for (const line of await pending) logger[line.level](line.text, { timestamp: true });
    },
  };
}

export default instantPostgres;
