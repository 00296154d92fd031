/**
 * The CLI's edges under attack, for the hostile suite: an emulator whose live state holds names a
 * real platform can hold (PostgreSQL allows a role named with a line break; the seed stands for
 * such a platform, while the emulator's API refuses them), and snapshots of a local directory so
 * a row can assert that nothing on disk changed. Buckets are the one kind whose names the platform
 * itself keeps free of control characters (they are URL path segments), so none is hostile here.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { SeedDocument } from "../../src/emulator/seed.js";
import { API_KEY } from "./cli/harness.js";

/** Erases the line above, rewrites it, forges a line, reverses and hides text. */
export const ATTACK = "\u001b[1A\u001b[2K\r  ~ nothing to see\n  + forged\u202egnp.exe\u200b\u0085";
/** The role of finding 2: its name carries a dotenv line that runs a file under `node --env-file`. */
export const HOSTILE_ROLE = "r\nNODE_OPTIONS=--require=/tmp/svc-hostile-x.cjs";
/** A second branch whose name attacks every view that names branches. */
export const HOSTILE_BRANCH = `preview/x${ATTACK}`;

/** The default project, with hostile names on every kind of live resource. */
export function hostileSeed(): SeedDocument {
  return {
    version: 1,
    users: [{ email: "dev@example.test", name: "Emulator Developer", plan: "scale", api_keys: [{ name: "bootstrap", key: API_KEY, admin: true }] }],
    projects: [
      {
        owner: "dev@example.test",
        name: `app${ATTACK}`,
        region_id: "aws-us-east-2",
        pg_version: 17,
        branches: [
          {
            name: "main",
            default: true,
            endpoints: [{ type: "read_write", state: "idle" }],
            roles: [{ name: "neondb_owner" }, { name: HOSTILE_ROLE }],
            databases: [{ name: "neondb", owner_name: HOSTILE_ROLE }, { name: `db${ATTACK}`, owner_name: "neondb_owner" }],
            functions: [{ slug: "api", name: `Api${ATTACK}` }],
            triggers: [{ name: `z${ATTACK}`, function_slug: "api", type: "schedule", cron: "0 * * * *" }],
            custom_domains: [{ domain: `shop${ATTACK}.example.com`, function_slug: "api" }],
          },
          { name: HOSTILE_BRANCH, parent: "main", endpoints: [{ type: "read_write", state: "idle" }] },
        ],
      },
    ],
  };
}

/** Characters no output may hold raw: every control character but the line feed, ESC, bidi and zero-width characters. */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;

/** The first raw unsafe character in `text` as `\uXXXX`, or null. */
export function rawUnsafe(text: string): string | null {
  const found = RAW_UNSAFE.exec(text);
  return found === null ? null : `\\u${(found[0].codePointAt(0) ?? 0).toString(16).padStart(4, "0")} at ${JSON.stringify(text.slice(Math.max(0, found.index - 30), found.index + 10))}`;
}

/** Every entry under `dir` (`.git` aside): its type, its link target or its content. */
export function treeSnapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      if (rel === "" && name === ".git") continue;
      const path = join(rel, name);
      const stats = lstatSync(join(dir, path));
      if (stats.isSymbolicLink()) out[path] = `link -> ${readlinkSync(join(dir, path))}`;
      else if (stats.isDirectory()) {
        out[path] = "dir";
        walk(path);
      } else if (stats.isFIFO()) out[path] = "fifo";
      else out[path] = `${(stats.mode & 0o777).toString(8)} ${readFileSync(join(dir, path), "utf8")}`;
    }
  };
  walk("");
  return out;
}

/** Makes a FIFO (named pipe) at `path`. */
export function makeFifo(path: string): void {
  execFileSync("mkfifo", [path]);
}
