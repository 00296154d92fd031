/** What every route module needs: the state and the hooks the fault engine provides. */
import { MAX_ENVIRONMENT_BYTES } from "../rules/environment.js";
import type { OperationFailureHook } from "./engine/operations.js";
import type { DatabaseSchema } from "./engine/schema-diff.js";
import type { BranchRec, EndpointRec, ProjectRec } from "./store/records.js";
import type { World } from "./store/world.js";

/** Size limits, in bytes unless named otherwise. */
export interface EmulatorLimits {
  jsonBodyBytes: number;
  multipartBodyBytes: number;
  zipBytes: number;
  unzippedBytes: number;
  zipEntries: number;
  environmentBytes: number;
  /** Body of one object uploaded through a presigned URL. */
  objectBytes: number;
  /** Storage limit of an unclaimed claimable database. */
  claimableStorageBytes: number;
}

/** Default limits. */
export const DEFAULT_LIMITS: Readonly<EmulatorLimits> = Object.freeze({
  jsonBodyBytes: 1024 * 1024,
  multipartBodyBytes: 12 * 1024 * 1024,
  zipBytes: 10 * 1024 * 1024,
  unzippedBytes: 64 * 1024 * 1024,
  zipEntries: 4096,
  environmentBytes: MAX_ENVIRONMENT_BYTES,
  objectBytes: 64 * 1024 * 1024,
  claimableStorageBytes: 104_857_600,
});

/** Shared by the route modules of one emulator instance. */
export interface EmulatorRuntime {
  /** The current state (replaced wholesale by `reset`). */
  readonly world: World;
  /** Whether an operation with this action should end `failed` (fault rule `opfail`). */
  readonly shouldFailOperation: OperationFailureHook;
  readonly limits: EmulatorLimits;
  /** Legacy auth routes after their removal date: keep serving, or answer 410. */
  readonly legacyAuth: "serve" | "gone";
  /** Writes a start/stop/warning line on stderr (never request data). */
  notice(line: string): void;
  /** The schema of a branch database: empty for record-only branches, read from PostgreSQL with real databases. */
  readonly schemaSource: SchemaSource;
  /** The hosts an endpoint's records carry: the platform's names, or connectable ones with real databases. */
  readonly endpointHosts: EndpointHostSource;
}

/** The `host` and `pooler_host` of an endpoint. */
export type EndpointHostSource = (project: ProjectRec, endpoint: EndpointRec) => { host: string; pooler_host: string };

/** Reads the schema of one database of a branch. */
export type SchemaSource = (project: ProjectRec, branch: BranchRec, database: string) => Promise<DatabaseSchema>;
