/**
 * The rows of the hostile suite that run through the `svc` command (`hostile-policies.test.ts`
 * runs them): each names its live state, its files, the command, and what the refusal must be —
 * its exit code, its error or conflict code, and the path, file or name it mentions.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync, readlinkSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFromFile } from "../../src/config/load-config.js";
import { plan, toSavedPlan, type SavedPlan } from "../../src/v1.js";
import { SEEDED, type BranchSeed } from "../helpers/seed-branch.js";

/** What a row's setup can reach: its policy directory and the emulator's API host. */
export interface CliRowContext {
  dir: string;
  apiHost: string;
}

/** One hostile case through the CLI. */
export interface CliRow {
  name: string;
  /** The live branch `main` (over the platform's defaults), and other branches. */
  branch?: Partial<BranchSeed>;
  others?: BranchSeed[];
  files: Record<string, string>;
  /** Local set-up after the files are written and the branch seeded (symlinks, FIFOs, a saved plan). */
  setup?: (ctx: CliRowContext) => void | Promise<void>;
  args: string[];
  /** Variables besides the emulator's SVC_* ones (which name project and branch `main`). */
  env?: Record<string, string>;
  exit: number;
  /** The error or conflict code the output names. */
  code: string;
  /** Text the output must contain: the path, file or name. */
  mentions: string;
}

const FN = "export default () => new Response('ok');\n";
const APPLY = ["config", "apply", "--update-existing", "--allow-data-loss"];
const IMPORTING = (file: string): Record<string, string> => ({
  "svc.ts": 'export default { functions: { api: { name: "Api", source: "./fn" } } };',
  "fn/index.mjs": `import data from "./${file}";\nexport default () => new Response(String(data).length);\n`,
});

/** Writes `plan.json` as `svc config plan --out` would, after `edit` tampers with it. */
async function savedPlanFile(ctx: CliRowContext, edit: (plan: SavedPlan & Record<string, unknown>) => void): Promise<void> {
  const { config } = await loadConfigFromFile({ cwd: ctx.dir, stopAt: ctx.dir });
  const saved = JSON.parse(JSON.stringify(toSavedPlan(await plan(config, { projectId: SEEDED.projectId, branchId: SEEDED.branchId, apiKey: SEEDED.apiKey, apiHost: ctx.apiHost })))) as SavedPlan & Record<string, unknown>;
  edit(saved);
  writeFileSync(join(ctx.dir, "plan.json"), `${JSON.stringify(saved, null, 2)}\n`);
}

const changeAt = (plan: SavedPlan, address: string): Record<string, unknown> => plan.changes.find((c) => c.address === address) as unknown as Record<string, unknown>;
const PRUNE_MEDIA = { "svc.ts": "export default { buckets: { fresh: {} }, prune: { buckets: true } };" };

export const CLI_ROWS: CliRow[] = [
  // Never delete what something live needs.
  { name: "prune of the database the live auth integration uses (the policy says nothing about auth)", branch: { auth: { auth_provider: "better_auth", database_name: "neondb" } }, files: { "svc.ts": "export default { roles: {}, databases: {}, prune: { roles: true, databases: true } };" }, args: APPLY, exit: 3, code: "STILL_REFERENCED", mentions: "database neondb would be pruned but it is used by the auth integration on the branch" },
  { name: "prune of a database a live Data API serves", branch: { databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "app", owner_name: "neondb_owner" }], data_api: [{ database: "app" }] }, files: { "svc.ts": "export default { databases: { neondb: { owner: \"neondb_owner\" } }, prune: { databases: true } };" }, args: APPLY, exit: 3, code: "STILL_REFERENCED", mentions: "database app would be pruned but it is used by the Data API on the branch" },
  // Prototype pollution.
  { name: "Object.prototype.allowDataLoss set by the policy, pruning a bucket with objects", branch: { buckets: [{ name: "media" }], objects: [{ bucket: "media", key: "cat.jpg" }] }, files: { "svc.ts": 'Object.defineProperty(Object.prototype, "allowDataLoss", { value: true });\nexport default { prune: { buckets: true } };' }, args: ["config", "apply", "--update-existing"], exit: 1, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: 'svc.ts (module top level) added "allowDataLoss" to Object.prototype' },
  { name: "prototype pollution from an imported module", branch: { buckets: [{ name: "media" }], objects: [{ bucket: "media", key: "cat.jpg" }] }, files: { "svc.ts": 'import "./polluter.mjs";\nexport default { prune: { buckets: true } };', "polluter.mjs": "Object.prototype.updateExisting = true;\nObject.prototype.allowDataLoss = true;\n" }, args: ["config", "apply"], exit: 1, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "to Object.prototype" },
  // Read once.
  { name: "a buckets getter answering __proto__ first and {} later", branch: { buckets: [{ name: "__proto__" }], objects: [{ bucket: "__proto__", key: "a" }] }, files: { "svc.ts": 'let reads = 0;\nexport default { get buckets() { return reads++ === 0 ? JSON.parse(\'{"__proto__":{}}\') : {}; }, prune: { buckets: true } };' }, args: APPLY, exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "buckets.__proto__" },
  { name: "a functions getter hiding the trigger's function from validation", files: { "svc.ts": 'let reads = 0;\nexport default { get functions() { return reads++ === 0 ? {} : { api: { name: "Api", source: "./fn" } }; }, triggers: { nightly: { type: "schedule", function: "api", cron: "0 3 * * *" } } };', "fn/index.mjs": FN }, args: APPLY, exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "triggers.nightly.function: function `api` is not declared" },
  { name: "a Proxy whose trap throws while the policy is read", files: { "svc.ts": 'export default new Proxy({ buckets: {} }, { get() { throw new Error("trap"); } });' }, args: APPLY, exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "buckets: could not be read: trap" },
  // Names are entries, never Object.prototype members.
  { name: "a database hasOwnProperty owned by constructor", files: { "svc.ts": 'export default { databases: { hasOwnProperty: { owner: "constructor" } } };' }, args: APPLY, exit: 3, code: "UNKNOWN_ROLE", mentions: "database hasOwnProperty is to be owned by role constructor" },
  { name: "a Data API anonymous role named constructor", files: { "svc.ts": 'export default { auth: true, dataApi: { settings: { dbAnonRole: "constructor" } } };' }, args: APPLY, exit: 3, code: "UNKNOWN_ROLE", mentions: "dataApi.settings.dbAnonRole names role constructor, which is neither on the branch nor declared under roles" },
  { name: "a live database __proto__ owned by the role prune would delete", branch: { roles: [{ name: "neondb_owner" }, { name: "victim" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "__proto__", owner_name: "victim" }] }, files: { "svc.ts": 'export default { roles: { neondb_owner: {} }, databases: { neondb: { owner: "neondb_owner" } }, prune: { roles: true } };' }, args: APPLY, exit: 3, code: "STILL_REFERENCED", mentions: "role victim would be pruned but still owns database __proto__" },
  // What is shown is what runs.
  { name: "a saved plan whose delete was edited into a create", branch: { buckets: [{ name: "media" }] }, files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, (p) => (changeAt(p, "bucket.media").action = "create")), args: ["config", "apply", "plan.json", "--update-existing"], exit: 6, code: "PLATFORM_STALE_PLAN", mentions: "change bucket.media: action differs" },
  { name: "a saved plan whose state fingerprint was emptied (the form only a verification's own re-plan leaves)", branch: { buckets: [{ name: "media" }] }, files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, (p) => (p.stateFingerprint = "")), args: ["config", "apply", "plan.json", "--update-existing"], exit: 6, code: "PLATFORM_STALE_PLAN", mentions: "changed after the plan was made" },
  { name: "a saved plan whose override was edited into an additive change", branch: { buckets: [{ name: "media" }] }, files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, (p) => (changeAt(p, "bucket.media").class = "additive")), args: ["config", "apply", "plan.json"], exit: 6, code: "PLATFORM_STALE_PLAN", mentions: "change bucket.media: class differs" },
  { name: "a saved plan whose address carries an escape sequence", branch: { buckets: [{ name: "media" }] }, files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, (p) => (changeAt(p, "bucket.media").address = "bucket.media\u001b[2K")), args: ["config", "apply", "plan.json", "--update-existing"], exit: 6, code: "PLATFORM_STALE_PLAN", mentions: "change bucket.media\\u001b[2K: is in the saved plan but no longer planned" },
  { name: "a saved plan applied with --target narrowing it (never ignored)", branch: { buckets: [{ name: "media" }] }, files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, () => undefined), args: ["config", "apply", "plan.json", "--update-existing", "--target", "bucket.fresh"], exit: 1, code: "CLI_USAGE", mentions: "--target bucket.fresh cannot narrow a saved plan: plan.json applies exactly the changes it shows" },
  { name: "a conflict's resolution names the --config file, not svc.ts", branch: { roles: [{ name: "neondb_owner" }, { name: "victim" }], databases: [{ name: "neondb", owner_name: "neondb_owner" }, { name: "app", owner_name: "victim" }] }, files: { "infra/app.ts": 'export default { roles: { neondb_owner: {} }, databases: { neondb: { owner: "neondb_owner" } }, prune: { roles: true } };' }, args: ["config", "apply", "--config", "infra/app.ts", "--update-existing"], exit: 3, code: "STILL_REFERENCED", mentions: "resolve: Keep it in infra/app.ts, or first remove what still uses it" },
  { name: "a saved plan applied with SVC_BRANCH_ID naming another branch", branch: { buckets: [{ name: "media" }] }, others: [{ id: "br-seeded-other", name: "other", parent: "main" }], files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, () => undefined), args: ["config", "apply", "plan.json", "--update-existing"], env: { SVC_BRANCH_ID: "br-seeded-other" }, exit: 6, code: "PLATFORM_STALE_PLAN", mentions: "this run targets other (br-seeded-other, SVC_BRANCH_ID)" },
  { name: "a saved plan applied with SVC_PROJECT_ID naming another project", branch: { buckets: [{ name: "media" }] }, files: PRUNE_MEDIA, setup: (ctx) => savedPlanFile(ctx, () => undefined), args: ["config", "apply", "plan.json", "--update-existing"], env: { SVC_PROJECT_ID: "another-project" }, exit: 6, code: "PLATFORM_STALE_PLAN", mentions: "this run targets project another-project (SVC_PROJECT_ID)" },
  // Not a policy.
  { name: "a Promise as the default export", files: { "svc.ts": "export default Promise.resolve({ buckets: { media: {} } });" }, args: ["config", "validate"], exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "is a Promise, not a policy object" },
  { name: "a Map as the default export", files: { "svc.ts": 'export default new Map([["buckets", {}]]);' }, args: ["config", "plan", "--detailed-exitcode"], exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "is a Map, not a policy object" },
  { name: "an async function as the default export", files: { "svc.ts": "export default async () => ({ buckets: {} });" }, args: ["config", "plan", "--detailed-exitcode"], exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "is a function" },
  // Deleting a deployed secret is an override.
  { name: 'STRIPE_KEY: "" deleting the deployed secret without --update-existing', branch: { functions: [{ slug: "api", name: "Api", runtime: "nodejs24", environment: { STRIPE_KEY: "sk" } }] }, files: { "svc.ts": 'export default { functions: { api: { name: "Api", source: "./fn", bundler: "none", env: { STRIPE_KEY: "" } } } };', "fn/index.mjs": FN }, args: ["config", "apply"], exit: 4, code: "CLI_CONFIRMATION_REQUIRED", mentions: "function.api" },
  // Bundling reads only regular files.
  { name: "a function importing a symlink to /dev/zero", files: IMPORTING("zero.txt"), setup: ({ dir }) => symlinkSync("/dev/zero", join(dir, "fn/zero.txt")), args: APPLY, exit: 1, code: "PLATFORM_BUNDLE_FAILED", mentions: "/dev/zero is a device, not a regular file" },
  { name: "a function importing a FIFO", files: IMPORTING("pipe.txt"), setup: ({ dir }) => execFileSync("mkfifo", [join(dir, "fn/pipe.txt")]), args: APPLY, exit: 1, code: "PLATFORM_BUNDLE_FAILED", mentions: "pipe.txt is a FIFO (named pipe), not a regular file" },
  { name: "a function importing a 65 MiB file", files: { ...IMPORTING("huge.txt"), "fn/huge.txt": "" }, setup: ({ dir }) => truncateSync(join(dir, "fn/huge.txt"), 65 * 1024 * 1024), args: APPLY, exit: 1, code: "PLATFORM_BUNDLE_FAILED", mentions: "huge.txt is 65.0 MiB" },
  // Names that read as others, names PostgreSQL reserves, values no environment holds.
  { name: "a Cyrillic lookalike of a live bucket with prune", branch: { buckets: [{ name: "media" }], objects: [{ bucket: "media", key: "cat.jpg" }] }, files: { "svc.ts": 'export default { buckets: { "medi\\u0430": {} }, prune: { buckets: true } };' }, args: APPLY, exit: 3, code: "NAME_LOOKALIKE", mentions: "read as one name" },
  { name: "a role named public", files: { "svc.ts": "export default { roles: { public: {} } };" }, args: APPLY, exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "roles.public: role name \"public\" is invalid: it is reserved by PostgreSQL" },
  { name: "a role name with a trailing space", files: { "svc.ts": 'export default { roles: { "admin ": {} } };' }, args: APPLY, exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "begins or ends with whitespace" },
  { name: "a NUL byte in an env value", files: { "svc.ts": 'export default { functions: { api: { name: "Api", source: "./fn", env: { TOKEN: "a\\u0000b" } } } };', "fn/index.mjs": FN }, args: APPLY, exit: 1, code: "PLATFORM_CONFIG_INVALID", mentions: "functions.api.env.TOKEN: value contains a NUL character" },
];

/**
 * Every entry under `dir` as what a user would notice changed: a regular file's size, time and
 * (under 1 MiB) digest; anything else by its kind. The bundle cache (`node_modules/.cache`) is
 * left out. Never reads a FIFO or a device.
 */
export function localFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (path === "node_modules/.cache") continue;
      const info = lstatSync(join(dir, path));
      if (info.isDirectory()) walk(path);
      else if (info.isFile()) out[path] = `${info.size} ${info.mtimeMs}${info.size < 1 << 20 ? ` ${createHash("sha256").update(readFileSync(join(dir, path))).digest("hex")}` : ""}`;
      else out[path] = info.isSymbolicLink() ? `-> ${readlinkSync(join(dir, path))}` : "(not a regular file)";
    }
  };
  walk("");
  return out;
}
