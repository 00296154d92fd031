import type { Pool, PoolConfig } from "pg";
import { INSTALL_HINT } from "./binaries.js";

/** Constructor of a `pg` pool. */
export type PoolConstructor = new (config: PoolConfig) => Pool;

/**
 * Imports the optional `pg` package on first use, so policy-only users may omit it. Throws with
 * the install hint when it is missing.
 */
export async function loadPgPool(): Promise<PoolConstructor> {
  try {
    const mod = await import("pg");
    return mod.default.Pool;
  } catch (err) {
    throw new Error(`the optional package pg is not installed; ${INSTALL_HINT}`, { cause: err });
  }
}
