import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The unprivileged account PostgreSQL runs as under root. */
export interface ServerUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** The account PostgreSQL refuses to run as; everything else runs as itself. */
export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/**
 * Returns the `postgres` account, creating it with `useradd --system` when absent.
 * Only called when running as root.
 */
export async function ensureServerUser(name = "postgres"): Promise<ServerUser> {
  if ((await lookupId(name, "-u")) === null) {
    try {
      await run("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name]);
    } catch (err) {
      throw new Error(`cannot create the unprivileged user "${name}" with useradd: ${messageOf(err)}`, { cause: err });
    }
  }
  const uid = await lookupId(name, "-u");
  const gid = await lookupId(name, "-g");
  if (uid === null || gid === null) throw new Error(`user "${name}" does not exist and could not be created`);
  return { name, uid, gid };
}

async function lookupId(name: string, flag: "-u" | "-g"): Promise<number | null> {
  try {
    const { stdout } = await run("id", [flag, name]);
    const id = Number.parseInt(stdout.trim(), 10);
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
