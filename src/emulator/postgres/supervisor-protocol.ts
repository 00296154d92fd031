/** What the emulator tells the supervisor child to start (sent once, over IPC). */
export interface SupervisorStartConfig {
  /** PostgreSQL data directory (created 0700, owned by the server's user). */
  readonly clusterDir: string;
  /** Directory of the Unix socket `.s.PGSQL.5432`. */
  readonly socketDir: string;
  /** Superuser name created by `initdb`. */
  readonly superuser: string;
  /** Superuser password (used only when the cluster is initialised). */
  readonly superPassword: string;
  /** A throw-away cluster: `initdb --no-sync`, `fsync=off`. */
  readonly ephemeral: boolean;
  /** Directories removed after the server stopped (a temporary cluster and its socket dir). */
  readonly removeOnStop: readonly string[];
  /** Root of the binary cache. @default os.tmpdir() */
  readonly cacheRoot?: string;
}

/** Messages from the emulator to the supervisor. */
export type SupervisorRequest =
  | { readonly type: "start"; readonly config: SupervisorStartConfig }
  | { readonly type: "stop" };

/** Messages from the supervisor to the emulator. */
export type SupervisorEvent =
  | { readonly type: "ready"; readonly pid: number; readonly binaryVersion: string }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "warning"; readonly message: string }
  | { readonly type: "stopped" };

/** Name of the socket file inside `socketDir` (the server always uses port 5432 there). */
export const SOCKET_FILE = ".s.PGSQL.5432";
