import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { sep } from "node:path";
import type { JitiOptions } from "jiti";
import { ErrorCode, isPlatformError } from "../errors/index.js";
import { runGuarded } from "./evaluation-guard.js";
import { type PolicyEsbuild, PolicySyntaxError, TopLevelAwaitSyntaxError, policyTransform, transformPolicyFile } from "./policy-transform.js";
import {
  evaluationError,
  invalidPolicyError,
  isValidationError,
  dependencyUnavailableError,
  topLevelAwaitError,
  unreadablePolicyError,
} from "./load-config-errors.js";
import { policyStackLocation } from "./policy-stack-location.js";

/**
 * Every jiti option, spelled out so that no `JITI_*` environment variable changes how a policy
 * is evaluated. No caches: every call re-reads and re-runs the policy and its local imports.
 * No interop proxy either: a `require` inside a module returns the required module's own
 * exports, so the import interop of each transformed module (`policy-transform.ts`) decides
 * what a default import is, the same way at every depth.
 */
const JITI_OPTIONS = {
  fsCache: false,
  rebuildFsCache: false,
  moduleCache: false,
  debug: false,
  sourceMaps: false,
  interopDefault: false,
  extensions: [".js", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".mtsx", ".ctsx"],
  alias: {},
  nativeModules: ["svc-config"],
  transformModules: [],
  tryNative: false,
  esmEvalTempFile: false,
  jsx: false,
  tsconfigPaths: false,
} as const satisfies JitiOptions;

const nativeRequire = createRequire(import.meta.url);
/** Node's CommonJS module cache, which jiti uses for the `.cjs` files it requires natively. */
const nativeModuleCache = nativeRequire.cache;

/**
 * Evaluates the policy module `file` afresh and returns its exports object.
 *
 * The file is read and run through jiti's synchronous CommonJS path with forced transpilation
 * (by esbuild: `policy-transform.ts`), so `.ts`, `.mts`, `.js` and `.mjs` policies and the local
 * modules they import are executed again on every call (jiti's async `import()` would hand
 * `.js`/`.mjs` to Node's uncleanable ESM cache). `svc-config` and `svc-config/v1` resolve to this
 * package's own loaded modules, so the policy's `defineConfig` is the caller's. The top level
 * runs under `timeoutMs` with process exits trapped (`evaluation-guard.ts`). Throws
 * `ConfigLoadError` for every failure.
 */
export async function evaluatePolicyModule(file: string, options: { timeoutMs?: number } = {}): Promise<unknown> {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (cause) {
    throw unreadablePolicyError(file, cause);
  }
  const esbuild = requireDependency<PolicyEsbuild>(file, "esbuild");
  // The policy's own transform runs in esbuild's service while this thread loads jiti.
  const transformed = transformPolicyFile(esbuild, file, source).then(
    (code) => ({ code }),
    (error: unknown) => ({ error }),
  );
  const { createJiti } = requireDependency<typeof import("jiti")>(file, "jiti");
  const virtualModules = await hostModules();
  const cachedBefore = new Set(Object.keys(nativeModuleCache));
  try {
    const ready = await transformed;
    if ("error" in ready) throw ready.error;
    warmUpSyncTransform(esbuild, ready.code);
    const jiti = createJiti(import.meta.url, { ...JITI_OPTIONS, virtualModules, transform: policyTransform(esbuild, { file, source, code: ready.code }) });
    return runGuarded(() => jiti.evalModule(source, { filename: file, async: false, forceTranspile: true }), { file, phase: "module", ...options });
  } catch (cause) {
    if (isPlatformError(cause, ErrorCode.CONFIG_LOAD_FAILED)) throw cause;
    if (isValidationError(cause)) throw invalidPolicyError(file, cause);
    if (cause instanceof TopLevelAwaitSyntaxError) throw topLevelAwaitError(file, cause.file, cause);
    const awaitIn = topLevelAwaitLocation(cause);
    if (awaitIn !== undefined) throw topLevelAwaitError(file, awaitIn ?? file, cause);
    throw evaluationError(file, cause, cause instanceof PolicySyntaxError ? cause.location : policyStackLocation(file, cause));
  } finally {
    forgetLocalNativeModules(cachedBefore);
  }
}

let syncTransformStarted = false;

/**
 * Starts esbuild's synchronous transform (a worker thread) outside the time limit when the policy
 * imports anything but `svc-config`: a limit that passed while it was starting would leave it
 * half-initialised for every later evaluation. A policy without imports never pays for it.
 */
function warmUpSyncTransform(esbuild: PolicyEsbuild, code: string): void {
  if (syncTransformStarted || !/\brequire\((?!"svc-config(?:\/v1)?"\))/.test(code)) return;
  esbuild.transformSync("", {});
  syncTransformStarted = true;
}

/**
 * Loads a package the evaluation needs with `require`: both are CommonJS, and `import()` of them
 * costs several times more (Node scans a CommonJS module imported from ESM for its exports). A
 * missing one is a `ConfigLoadError` naming it.
 */
function requireDependency<T>(file: string, name: "jiti" | "esbuild"): T {
  try {
    return nativeRequire(name) as T;
  } catch (cause) {
    throw dependencyUnavailableError(file, name, cause);
  }
}

/**
 * This package's own entry modules, keyed by the specifiers a policy imports. Loaded from the
 * running copy (`src/` under the tests, `dist/` when installed), so no second instance exists.
 */
async function hostModules(): Promise<Record<string, unknown>> {
  const [root, v1] = await Promise.all([import("../index.js"), import("../v1.js")]);
  return { "svc-config": root, "svc-config/v1": v1 };
}

/**
 * Where a top-level `await` made evaluation fail: the file named in the `SyntaxError`'s stack
 * header (a helper the policy imports, or the policy itself), `null` when the error is a
 * top-level-await error that names no file, `undefined` when it is some other error.
 */
function topLevelAwaitLocation(err: unknown): string | null | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { name, message, stack } = err as { name?: unknown; message?: unknown; stack?: unknown };
  if (name !== "SyntaxError" || typeof message !== "string") return undefined;
  const [header = "", code = "", caret = ""] = typeof stack === "string" ? stack.split("\n") : [];
  const pointsAtAwait = caret.includes("^") && code.slice(caret.indexOf("^")).startsWith("await");
  if (!pointsAtAwait && !message.startsWith("await is only valid")) return undefined;
  const location = /^(.+):\d+$/.exec(header);
  return location?.[1] ?? null;
}

/**
 * Drops the CommonJS modules that this evaluation loaded natively (`.cjs` helpers), so the next
 * call runs them again. Packages under `node_modules` stay cached: they are not the user's
 * editable code. Evaluation is synchronous, so nothing else can add entries in between.
 */
function forgetLocalNativeModules(cachedBefore: ReadonlySet<string>): void {
  const nodeModules = `${sep}node_modules${sep}`;
  for (const key of Object.keys(nativeModuleCache)) {
    if (!cachedBefore.has(key) && !key.includes(nodeModules)) delete nativeModuleCache[key];
  }
}
