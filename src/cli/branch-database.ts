/**
 * Which database, and which role, a branch's connection string is for: one rule for
 * `svc branch connection-string` and every `--write-env`. `--database` (it must exist), else the
 * first database the policy declares that the branch has (the Data API's first, then the others in
 * the order the policy lists them), else the branch's only database, else `neondb` (the database
 * the platform creates with a project); the role is `--role`, else that database's owner.
 */
import type { ApiDatabase } from "../api/platform-api.js";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";

/** The database the platform creates with a project, used when a branch has several. */
const PLATFORM_DEFAULT_DATABASE = "neondb";

/** What the choice depends on besides the branch's databases. */
export interface BranchDatabaseChoice {
  branchName: string;
  /** An explicit database (`--database`); must exist. */
  database?: string;
  /** An explicit role (`--role`); default: the database's owner. */
  role?: string;
  /** Databases the policy declares, in preference order (the first that exists wins). */
  declaredDatabases?: readonly string[];
  /** Appended to a refusal, e.g. "the env file was not written". */
  consequence?: string;
}

/**
 * The databases a policy declares, in preference order: the Data API's database first when it is
 * declared, then the others in the order the policy lists them.
 */
export function declaredDatabasesOf(config: unknown): string[] {
  const policy = (typeof config === "object" && config !== null ? config : {}) as { databases?: unknown; dataApi?: unknown };
  const declared = typeof policy.databases === "object" && policy.databases !== null ? Object.keys(policy.databases) : [];
  const dataApi = typeof policy.dataApi === "object" && policy.dataApi !== null ? (policy.dataApi as { database?: unknown }).database : undefined;
  const first = typeof dataApi === "string" && declared.includes(dataApi) ? [dataApi] : [];
  return [...first, ...declared.filter((name) => !first.includes(name))];
}

/** The database and role of the rule above; anything else is a usage error listing the databases. */
export function chooseBranchDatabase(databases: readonly Pick<ApiDatabase, "name" | "owner_name">[], choice: BranchDatabaseChoice): { database: string; role: string } {
  const byName = new Map(databases.map((d) => [d.name, d]));
  const names = databases.map((d) => d.name).join(", ") || "(none)";
  const then = choice.consequence === undefined ? "" : `; ${choice.consequence}`;
  let chosen: Pick<ApiDatabase, "name" | "owner_name"> | undefined;
  if (choice.database !== undefined) {
    chosen = byName.get(choice.database);
    if (chosen === undefined) {
      throw new CliError(CliErrorCode.USAGE, `Branch ${choice.branchName} has no database ${choice.database} (it has: ${names})${then}.`, { hint: "Pick one of its databases with --database NAME." });
    }
  } else {
    const declared = (choice.declaredDatabases ?? []).find((name) => byName.has(name));
    chosen = byName.get(declared ?? "") ?? (databases.length === 1 ? databases[0] : byName.get(PLATFORM_DEFAULT_DATABASE));
  }
  if (chosen === undefined) {
    throw new CliError(CliErrorCode.USAGE, `Branch ${choice.branchName} has ${databases.length} databases (${names}), none declared in the policy and none named ${PLATFORM_DEFAULT_DATABASE}${then}.`, {
      hint: databases.length === 0 ? "Declare a database under `databases` in the policy and apply it." : "Declare the one to use under `databases` in the policy, or pass --database NAME.",
    });
  }
  return { database: chosen.name, role: choice.role ?? chosen.owner_name };
}
