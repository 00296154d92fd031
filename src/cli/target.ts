import { DEFAULT_API_HOST } from "../api/client-options.js";
import { shown } from "./views/outside-text.js";
import type { ApiBranch, PlatformApi } from "../api/platform-api.js";
import { CliError, CliErrorCode } from "../errors/cli-errors.js";
import { ErrorCode } from "../errors/codes.js";
import { PlatformError } from "../errors/platform-error.js";
import type { EnvOrigins } from "./env-files.js";
import type { CliIo } from "./io.js";
import type { ValueSource } from "./views/view-model.js";

/** The target flags of `config *`, `deploy` and `branch *`. */
export interface TargetFlags {
  projectId?: string;
  branch?: string;
  apiKey?: string;
  apiHost?: string;
}

/** A resolved value, where it came from, and the label the echo prints. */
export interface Sourced<T> {
  value: T;
  source: ValueSource;
  /** e.g. `SVC_PROJECT_ID`, `--project-id`, `SVC_API_KEY from --env .env.ci`, `default`. */
  label: string;
}

/** Credentials and ids resolved from flags, environment and `--env` files; no network. */
export interface ResolvedCredentials {
  projectId: Sourced<string>;
  apiKey: Sourced<string>;
  apiHost: Sourced<string> & { insecure: boolean };
  /** The branch reference as given; `undefined` falls back to the default branch. */
  branchRef: Sourced<string> | undefined;
}

function fromEnv(name: string, io: CliIo, origins: EnvOrigins): Sourced<string> | undefined {
  const value = io.env[name];
  if (value === undefined || value.trim() === "") return undefined;
  const file = origins.get(name);
  return file === undefined
    ? { value: value.trim(), source: "env", label: name }
    : { value: value.trim(), source: "env-file", label: `${name} from --env ${file}` };
}

/** Trimmed, trailing `/` dropped, a bare origin gets `/api/v2`. */
export function normalizeApiHost(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `--api-host ${JSON.stringify(trimmed)} is not a URL.`, {
      details: { option: "apiHost", value: trimmed },
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PlatformError(ErrorCode.INVALID_OPTIONS, `--api-host must be an http(s) URL (got ${url.protocol}).`, {
      details: { option: "apiHost", value: trimmed },
    });
  }
  return url.pathname === "/" || url.pathname === "" ? `${url.origin}/api/v2` : trimmed;
}

/** Whether a host is loopback: `localhost`, `127.0.0.0/8` or `[::1]`. */
export function isLoopbackHost(apiHost: string): boolean {
  const host = new URL(apiHost).hostname;
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Resolves project id, API key and host, and the branch reference: flag, then
 * `SVC_*` (from the process or an `--env` file), then the default or an error.
 */
export function resolveCredentials(flags: TargetFlags, io: CliIo, origins: EnvOrigins, needs: { project: boolean }): ResolvedCredentials {
  const projectId: Sourced<string> | undefined =
    flags.projectId !== undefined ? { value: flags.projectId.trim(), source: "flag", label: "--project-id" } : fromEnv("SVC_PROJECT_ID", io, origins);
  if (projectId === undefined && needs.project) {
    throw new CliError(CliErrorCode.MISSING_PROJECT, "No project: neither --project-id nor SVC_PROJECT_ID is set.", {
      hint: "Pass --project-id or set SVC_PROJECT_ID.",
    });
  }
  const apiKey: Sourced<string> | undefined =
    flags.apiKey !== undefined ? { value: flags.apiKey.trim(), source: "flag", label: "--api-key" } : fromEnv("SVC_API_KEY", io, origins);
  if (apiKey === undefined || apiKey.value === "") {
    throw new PlatformError(ErrorCode.MISSING_API_KEY, "No API key: neither --api-key nor SVC_API_KEY is set.", {
      details: { operation: "cli" },
    });
  }
  const hostRaw: Sourced<string> =
    flags.apiHost !== undefined
      ? { value: flags.apiHost, source: "flag", label: "--api-host" }
      : (fromEnv("SVC_API_HOST", io, origins) ?? { value: DEFAULT_API_HOST, source: "default", label: "default" });
  const host = normalizeApiHost(hostRaw.value);
  const insecure = new URL(host).protocol === "http:" && !isLoopbackHost(host);
  const branchRef: Sourced<string> | undefined =
    flags.branch !== undefined ? { value: flags.branch, source: "flag", label: "--branch" } : fromEnv("SVC_BRANCH_ID", io, origins);
  return {
    projectId: projectId ?? { value: "", source: "default", label: "default" },
    apiKey,
    apiHost: { ...hostRaw, value: host, insecure },
    branchRef,
  };
}

/** How a branch reference was matched. */
export type BranchMatch = "id" | "name" | "default";

function notFound(projectId: string, ref: string, branches: readonly ApiBranch[], by: "id" | "name" | "ref" = "ref"): PlatformError {
  return new PlatformError(ErrorCode.BRANCH_NOT_FOUND, `Branch "${shown(ref)}" does not exist in project ${shown(projectId)}.`, {
    details: { projectId, branchId: ref, by, available: branches.slice(0, 20).map((b) => ({ name: b.name, id: b.id })) },
  });
}

/** A branch *name* given where only an id is read (`SVC_BRANCH_ID`, `id:`): names the id it meant. */
function nameGivenForId(projectId: string, ref: Sourced<string>, id: string, named: ApiBranch): PlatformError {
  const where = ref.source === "flag" ? `--branch id:${id}` : ref.label;
  return new PlatformError(ErrorCode.BRANCH_NOT_FOUND, `${shown(where)} takes a branch id, and no branch has id "${shown(id)}"; "${shown(id)}" is the name of branch ${shown(named.id)}.`, {
    details: { projectId, branchId: id, by: "id", namedBranch: { name: named.name, id: named.id }, variable: ref.source === "flag" ? null : ref.label.split(" ")[0] },
  });
}

/**
 * Resolves a branch reference against every branch of the project: `id:` and
 * `SVC_BRANCH_ID` by id, `name:` by exact name, a bare value by id then name (ambiguous when
 * it is one branch's id and another's name); none falls back to the default branch.
 */
export async function resolveBranch(
  api: PlatformApi,
  projectId: string,
  ref: Sourced<string> | undefined,
): Promise<{ branch: ApiBranch; match: BranchMatch }> {
  const branches = await api.listBranches({ projectId });
  if (ref === undefined) {
    const branch = branches.find((b) => b.default);
    if (branch === undefined) throw notFound(projectId, "(default branch)", branches);
    return { branch, match: "default" };
  }
  const raw = ref.value.trim();
  const byId = (id: string): ApiBranch | undefined => branches.find((b) => b.id === id);
  const byName = (name: string): ApiBranch | undefined => branches.find((b) => b.name === name);
  if (raw.startsWith("id:") || ref.source !== "flag") {
    const id = raw.startsWith("id:") ? raw.slice(3) : raw;
    const branch = byId(id);
    const named = byName(id);
    if (branch === undefined && named !== undefined) throw nameGivenForId(projectId, ref, id, named);
    if (branch === undefined) throw notFound(projectId, id, branches, "id");
    return { branch, match: "id" };
  }
  if (raw.startsWith("name:")) {
    const branch = byName(raw.slice(5));
    if (branch === undefined) throw notFound(projectId, raw.slice(5), branches, "name");
    return { branch, match: "name" };
  }
  const idMatch = byId(raw);
  const nameMatch = byName(raw);
  if (idMatch !== undefined && nameMatch !== undefined && idMatch.id !== nameMatch.id) {
    throw new CliError(CliErrorCode.BRANCH_AMBIGUOUS, `--branch ${raw} is the id of ${idMatch.name} and the name of ${nameMatch.name} (${nameMatch.id}).`, {
      hint: `Prefix it with id: or name:, e.g. --branch name:${raw}`,
    });
  }
  if (idMatch !== undefined) return { branch: idMatch, match: "id" };
  if (nameMatch !== undefined) return { branch: nameMatch, match: "name" };
  throw notFound(projectId, raw, branches);
}
