/**
 * For tests that need the npm registry (staging `externalPackages` for real): they fail, never
 * skip, when it cannot be reached, and say so. npm's own cache makes repeated runs fast.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** A napi-rs package with a small linux-arm64-gnu build, pinned. */
export const NATIVE_PACKAGE = { name: "@node-rs/argon2", version: "2.2.1", arm64Package: "@node-rs/argon2-linux-arm64-gnu", hostPackage: "@node-rs/argon2-linux-x64-gnu" } as const;

/** Throws a clear error when `npm` or the registry is unavailable. */
export async function requireNpmRegistry(): Promise<void> {
  try {
    await promisify(execFile)("npm", ["view", `${NATIVE_PACKAGE.name}@${NATIVE_PACKAGE.version}`, "version"], { timeout: 60_000 });
  } catch (err) {
    const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
    throw new Error(`This test stages a real package from the npm registry and needs npm and the registry (npm view failed: ${why}). Connect to the registry and run it again.`);
  }
}

/** Installs the native package (the host's build, as a developer would) into `dir`. */
export async function installNativePackage(dir: string): Promise<void> {
  await promisify(execFile)("npm", ["install", `${NATIVE_PACKAGE.name}@${NATIVE_PACKAGE.version}`, "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, timeout: 300_000 });
}

/**
 * What a child process needs from this environment to reach the registry as npm does here:
 * certificate authorities, proxies and npm's own settings (the CLI harness passes PATH and HOME only).
 */
export function registryEnv(): Record<string, string> {
  const names = /^(?:NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|npm_config_.+|NPM_CONFIG_.+)$/;
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => names.test(entry[0]) && entry[1] !== undefined));
}
