/** psql for the tests that use real PostgreSQL: a clear failure when it is missing, and a one-shot query. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** Throws with the install line when psql is not on the PATH. */
export async function requirePsql(): Promise<void> {
  const psql = await promisify(execFile)("psql", ["--version"]).catch(() => null);
  if (psql === null) throw new Error("psql is missing: install it with `apt-get install -y --no-install-recommends postgresql-client`");
}

/** Runs `sql` on `url` (stops on the first error) and returns the unaligned output, trimmed. */
export async function psql(url: string, sql: string): Promise<string> {
  const { stdout } = await promisify(execFile)("psql", [url, "-v", "ON_ERROR_STOP=1", "-Atc", sql], { env: { PATH: process.env.PATH ?? "" } });
  return stdout.trim();
}
