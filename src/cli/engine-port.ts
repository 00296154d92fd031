import type { PlatformApi } from "../api/platform-api.js";
import type { BranchTarget, ResolvedFunctionConfig, ResolvedPolicy } from "../model/desired-state.js";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import type { PushResult } from "../model/plan.js";

/** A loaded policy, opaque to the CLI (it only passes it back to the engine). */
export type PolicyValue = object;

/** The saved-plan document of engine.md §9; the CLI reads only the fields listed. */
export interface SavedPlanDocument {
  formatVersion: number;
  projectId: string;
  branchId: string;
  branchName: string;
  changes: PushResult["changes"];
  conflicts: PushResult["conflicts"];
  unmanaged: PushResult["unmanaged"];
  warnings: PushResult["warnings"];
  summary: PushResult["summary"];
}

/** `inspect` / `pullConfig` output (engine.md §11). */
export interface PulledBranch {
  project: { id: string; name: string; region: string; pgVersion: number; orgId?: string };
  branch: { id: string; name: string; parent?: string; isDefault: boolean; protected: boolean; expiresAt?: string };
  config: PolicyValue & { auth?: unknown; dataApi?: unknown; branch?: unknown };
  preview?: {
    buckets: { name: string; access: string }[];
    functions: { slug: string; name: string }[];
    credentials: unknown[];
  };
}

/** Options every engine operation takes (engine.md §3), as the CLI fills them. */
export interface OperationOptions {
  projectId: string;
  branchId: string;
  api: PlatformApi;
  signal?: AbortSignal;
  onEvent?: (event: unknown) => void;
}

/** Options of `plan`, `pushConfig` and `applyPlan` the CLI uses. */
export interface PushOptions extends OperationOptions {
  concurrency?: number;
  fingerprintKey?: string;
  allowDataLoss?: boolean;
  updateExisting?: boolean;
  allowProtectedBranch?: boolean;
  dryRun?: boolean;
  confirm?: (context: { branchName: string; protectedBranch: boolean; overrideUpdates: boolean }) => boolean | Promise<boolean>;
  bundleFunction?: (fn: ResolvedFunctionConfig) => Promise<Uint8Array>;
  targets?: readonly string[];
  exclude?: readonly string[];
}

/** The engine functions the CLI calls, as `svc-config/v1` exports them (engine.md §2). */
export interface EnginePort {
  loadConfigFromFile(options: { path?: string; cwd?: string; evaluationTimeoutMs?: number }): Promise<{ config: PolicyValue; resolvedPath: string }>;
  resolvePolicy(config: PolicyValue, target: BranchTarget): ResolvedPolicy;
  buildFunctionBundle(fn: ResolvedFunctionConfig): Promise<Uint8Array>;
  plan(config: PolicyValue, options: PushOptions): Promise<PushResult>;
  pushConfig(config: PolicyValue, options: PushOptions): Promise<PushResult>;
  applyPlan(saved: SavedPlanDocument, options: PushOptions & { config: PolicyValue }): Promise<PushResult>;
  toSavedPlan(result: PushResult): SavedPlanDocument;
  createBranch(
    config: PolicyValue,
    options: { projectId: string; branchName: string; api: PlatformApi; concurrency?: number; fingerprintKey?: string; allowDataLoss?: boolean; signal?: AbortSignal; onEvent?: (event: unknown) => void; annotations?: Record<string, string> },
  ): Promise<{ branchId: string; branchName: string; result: PushResult }>;
  inspect(options: OperationOptions): Promise<PulledBranch>;
  pullConfig(options: OperationOptions): Promise<PulledBranch>;
  renderPolicySource(pulled: PulledBranch): string;
  createPlatformApi(options: { apiKey: string; apiHost?: string; fetch?: typeof globalThis.fetch; signal?: AbortSignal; onEvent?: (event: unknown) => void }): PlatformApi;
}

/** A name of {@link EnginePort}. */
export type EngineFunction = keyof EnginePort;

/**
 * Loads the engine lazily from the public surface (`src/v1.ts`), so `svc --help` and
 * `svc config init` never load it. A function missing from the build is `CLI_INTERNAL`.
 */
export async function loadEngine(): Promise<EnginePort> {
  const surface = (await import("../v1.js")) as unknown as Partial<EnginePort>;
  return new Proxy(surface as EnginePort, {
    get(target, name: string | symbol) {
      // Not thenable: `await` on the engine must not look like a missing function.
      if (typeof name === "symbol" || name === "then") return undefined;
      const value = (target as unknown as Record<string, unknown>)[name];
      if (typeof value !== "function") {
        throw new CliError(CliErrorCode.INTERNAL, `This build of svc-config has no ${name}; the engine is incomplete.`, {
          hint: "Rebuild with npm run build, or report it.",
        });
      }
      return value;
    },
  });
}
