/**
 * The hostile-policy suite: one row per way a policy, its file tree or the operation's options
 * can attack the engine. Each row loads the policy from a real temp tree and applies it (with
 * `updateExisting`, `allowDataLoss` and `prune`, so nothing but the refusal stands in the way)
 * against an emulator over real HTTP, then asserts the typed error code, the path or name in the
 * message, and that the platform's state did not change.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { loadConfigFromFile } from "../../src/config/load-config.js";
import { apply, createBranch, createPlatformApi, isPlatformError, plan, type ErrorCode } from "../../src/v1.js";
import { createTempTree, type TempTree } from "../helpers/temp-dir.js";
import { SEEDED, seedWith } from "../helpers/seed-branch.js";
import { ensureBuilt, runSvc } from "./cli/harness.js";
import { CLI_ROWS, localFiles } from "./hostile-cli-rows.js";

const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };
const FN = "export default () => new Response('ok');\n";
const api = (name = "Api", extra = ""): string => `api: { name: ${JSON.stringify(name)}, source: "./fn"${extra} }`;

/** One hostile case. `files` are written into a fresh tree (with `.git` at its root). */
interface Row {
  name: string;
  files: Record<string, string>;
  /** Extra tree setup: symlinks, sparse files, a directory outside the project. */
  setup?: (tree: TempTree, outside: TempTree) => void;
  /** The operation: `apply` (default), `createBranch` or `apply` with options replaced. */
  run?: "apply" | "createBranch" | "apply-without-branch-id";
  code: ErrorCode;
  /** Text the error's message (with its issues) must contain: the path, file or name. */
  mentions: string | ((tree: TempTree, outside: TempTree) => string);
}

const ROWS: Row[] = [
  // 1. Reserved names never vanish.
  { name: "a __proto__ bucket from JSON.parse, with prune.buckets", files: { "svc.ts": `export default { ...JSON.parse('{"buckets":{"__proto__":{},"keep":{}}}'), prune: { buckets: true } };` }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "buckets.__proto__" },
  { name: "a __proto__ function slug", files: { "svc.ts": `export default JSON.parse('{"functions":{"__proto__":{"name":"x","source":"./fn"}}}');`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.__proto__" },
  { name: "a __proto__ trigger name", files: { "svc.ts": `export default { functions: { ${api()} }, ...JSON.parse('{"triggers":{"__proto__":{"type":"schedule","function":"api","cron":"* * * * *"}}}') };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "triggers.__proto__" },
  { name: "a __proto__ env name", files: { "svc.ts": `export default { functions: { api: { name: "Api", source: "./fn", env: JSON.parse('{"__proto__":"x"}') } } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.api.env.__proto__" },
  { name: "a __proto__ slug in the branch tuning", files: { "svc.ts": `export default { functions: { ${api()} }, branch: () => JSON.parse('{"functions":{"__proto__":{"customDomains":[]}}}') };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_INVALID", mentions: "branch.functions.__proto__" },
  { name: "a declared bucket whose live twin is spelled in another Unicode form, with prune.buckets", files: { "svc.ts": `export default { buckets: { "caf\\u00e9": {}, keep: {}, constructor: {} }, prune: { buckets: true } };` }, code: "PLATFORM_PUSH_CONFLICT", mentions: "the same name in different Unicode forms" },
  // 2. Function sources stay inside the project.
  { name: "an absolute source outside the policy's directory", files: { "svc.ts": "" }, setup: (t, o) => t.write("svc.ts", `export default { functions: { api: { name: "Api", source: ${JSON.stringify(o.path("fn"))} } } };`), code: "PLATFORM_CONFIG_INVALID", mentions: (_t, o) => `functions.api.source: resolves to ${o.path("fn")}` },
  { name: "a source symlinked to a directory outside", files: { "svc.ts": `export default { functions: { ${api()} } };` }, setup: (t, o) => symlinkSync(o.path("fn"), t.path("fn")), code: "PLATFORM_CONFIG_INVALID", mentions: "(through a symlink: " },
  // 3. Names that break URLs or eyes.
  { name: "a bucket named ..", files: { "svc.ts": `export default { buckets: { "..": {} } };` }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: 'buckets[".."]: bucket name ".." is invalid: it is a dot segment' },
  { name: "a bucket named %2e", files: { "svc.ts": `export default { buckets: { "%2e": {} } };` }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: 'buckets["%2e"]' },
  { name: "a trigger name with a bidi override", files: { "svc.ts": `export default { functions: { ${api()} }, triggers: { "nightly\\u202ecod": { type: "schedule", function: "api", cron: "0 0 * * *" } } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: 'triggers["nightly\\u202ecod"]' },
  { name: "a __proto__ read replica from JSON.parse", files: { "svc.ts": `export default { branch: () => JSON.parse('{"readReplicas":{"__proto__":{},"keep":{}}}') };` }, code: "PLATFORM_CONFIG_INVALID", mentions: "branch.readReplicas.__proto__" },
  { name: "a read replica name with a bidi override", files: { "svc.ts": `export default { branch: () => ({ readReplicas: { "reports\\u202ecod": {} } }) };` }, code: "PLATFORM_CONFIG_INVALID", mentions: 'branch.readReplicas["reports\\u202ecod"]: read replica name' },
  { name: "a billion read replicas", files: { "svc.ts": "export default { branch: () => ({ readReplicas: 1e9 }) };" }, code: "PLATFORM_CONFIG_INVALID", mentions: "branch.readReplicas: must be a whole number of replicas from 0 to 100 (got 1000000000)" },
  { name: "a parent with a zero-width space", files: { "svc.ts": `export default { branch: () => ({ parent: "ma\\u200bin" }) };` }, code: "PLATFORM_CONFIG_INVALID", mentions: "branch.parent: must be a branch name" },
  // 4. A policy that never finishes or quits.
  { name: "an endless loop at the module top level", files: { "svc.ts": "while (true) {}\nexport default {};" }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "(module top level) did not finish within 300 ms" },
  { name: "an endless loop in the branch closure", files: { "svc.ts": "export default { branch: () => { for (;;) {} } };" }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "(branch closure) did not finish within 300 ms" },
  { name: "process.exit(0) at the module top level", files: { "svc.ts": "process.exit(0);\nexport default {};" }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "svc.ts (module top level) called process.exit(0)" },
  { name: "process.exit(0) in the branch closure", files: { "svc.ts": "export default { branch: () => process.exit(0) };" }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "svc.ts (branch closure) called process.exit(0)" },
  // 5. Offline limits match the platform's.
  { name: "a 70 KiB env value", files: { "svc.ts": `export default { functions: { api: { name: "Api", source: "./fn", env: { BIG: "x".repeat(70 * 1024) } } } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.api.env.BIG: value is " },
  { name: "a 66 KiB environment in 33 variables", files: { "svc.ts": `export default { functions: { api: { name: "Api", source: "./fn", env: Object.fromEntries(Array.from({ length: 33 }, (_, i) => ["V" + i, "x".repeat(2048)])) } } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.api.env: is " },
  { name: "an env name the platform refuses", files: { "svc.ts": `export default { functions: { api: { name: "Api", source: "./fn", env: { "1BAD": "x" } } } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: 'env name "1BAD" is invalid' },
  // 6. Archive entry names (the bundler side of the emulator's rule).
  { name: "a custom bundler writing a name with a newline", files: { "svc.ts": `export default { functions: { api: { name: "Api", source: "./fn", bundler: async () => ({ "index.mjs": "export default 1", "log\\nforged.js": "x" }) } } };`, "fn/index.mjs": FN }, code: "PLATFORM_BUNDLE_FAILED", mentions: 'path "log\\u000aforged.js": the path contains a control character' },
  // 7. External packages and hooks: names that could reach npm or a shell as something else.
  { name: "an external package named like an npm flag", files: { "svc.ts": `export default { functions: { ${api("Api", ', externalPackages: ["--registry=http://evil.test"]')} } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.api.externalPackages[0]" },
  { name: "a __proto__ external package", files: { "svc.ts": `export default { functions: { ${api("Api", ', externalPackages: ["__proto__"]')} } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: 'functions.api.externalPackages[0]: "__proto__" is not a package name' },
  { name: "an installed package.json whose version carries npm flags", files: { "svc.ts": `export default { functions: { ${api("Api", ', externalPackages: ["evilpkg"]')} } };`, "fn/index.mjs": 'import e from "evilpkg";\nexport default () => new Response(String(e));\n', "node_modules/evilpkg/package.json": JSON.stringify({ name: "evilpkg", version: "1.0.0 --registry=http://evil.test" }) }, code: "PLATFORM_BUNDLE_FAILED", mentions: "external package evilpkg is not installed in the project" },
  { name: "externalPackages with bundler none", files: { "svc.ts": `export default { functions: { ${api("Api", ', bundler: "none", externalPackages: ["sharp"]')} } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.api.externalPackages: only the esbuild bundler" },
  { name: "a hook command with a NUL character", files: { "svc.ts": `export default { hooks: { deploy: { after: "echo a\\0b" } } };` }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "hooks.deploy.after: must not contain a NUL character" },
  { name: "a hook that is an object", files: { "svc.ts": `export default { hooks: { create: { before: { run: "x" } } } };` }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "hooks.create.before: must be a function, a shell command" },
  // 8. Options checked before any I/O.
  { name: "an omitted branchId", files: { "svc.ts": "export default { buckets: { media: {} } };" }, run: "apply-without-branch-id", code: "PLATFORM_INVALID_OPTIONS", mentions: "Invalid option branchId" },
  // 9. A missing parent is an error for createBranch.
  { name: "createBranch from a parent that does not exist", files: { "svc.ts": `export default { branch: () => ({ parent: "no-such-branch" }) };` }, run: "createBranch", code: "PLATFORM_BRANCH_NOT_FOUND", mentions: 'parent branch "no-such-branch" does not exist' },
  // Cases that already held.
  { name: "a wrong type", files: { "svc.ts": "export default { buckets: 5 };" }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "buckets: must be an object" },
  { name: "an unknown key", files: { "svc.ts": "export default { bukets: {} };" }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: '"bukets" is not a known key here (did you mean "buckets"?)' },
  { name: "a 1 MB function name", files: { "svc.ts": `export default { functions: { api: { name: "n".repeat(1_000_000), source: "./fn" } } };`, "fn/index.mjs": FN }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "functions.api.name: must be 1 to 255 characters long" },
  { name: "a throwing closure", files: { "svc.ts": `export default { branch: () => { throw new Error("boom"); } };` }, code: "PLATFORM_CONFIG_INVALID", mentions: 'branch: the branch function failed for branch "main": boom' },
  { name: "an async closure", files: { "svc.ts": "export default { branch: async () => ({}) };" }, code: "PLATFORM_CONFIG_INVALID", mentions: "returned a promise" },
  { name: "a dangling symlink inside a prebuilt source", files: { "svc.ts": `export default { functions: { ${api("Api", ', bundler: "none"')} } };`, "fn/index.mjs": FN }, setup: (t) => symlinkSync(t.path("fn/missing.js"), t.path("fn/gone.js")), code: "PLATFORM_BUNDLE_FAILED", mentions: "symlink gone.js is dangling" },
  { name: "a symlink leaving a prebuilt source", files: { "svc.ts": `export default { functions: { ${api("Api", ', bundler: "none"')} } };`, "fn/index.mjs": FN, "secret.txt": "s" }, setup: (t) => symlinkSync(t.path("secret.txt"), t.path("fn/secret.txt")), code: "PLATFORM_BUNDLE_FAILED", mentions: "symlink secret.txt points outside the source directory" },
  { name: "a ZIP-slip name from a custom bundler", files: { "svc.ts": `export default { functions: { api: { name: "Api", source: "./fn", bundler: async () => ({ "index.mjs": "export default 1", "../evil.js": "x" }) } } };`, "fn/index.mjs": FN }, code: "PLATFORM_BUNDLE_FAILED", mentions: 'path "../evil.js": the path contains a .. segment' },
  { name: "a 200 MB file in a prebuilt source", files: { "svc.ts": `export default { functions: { ${api("Api", ', bundler: "none"')} } };`, "fn/index.mjs": FN, "fn/blob.bin": "" }, setup: (t) => truncateSync(t.path("fn/blob.bin"), 200 * 1024 * 1024), code: "PLATFORM_BUNDLE_FAILED", mentions: "blob.bin" },
  { name: "cyclic imports", files: { "svc.ts": `import { base } from "./a.ts";\nexport const shared = { auth: true };\nexport default { ...base };`, "a.ts": `import { shared } from "./svc.ts";\nexport const base = { auth: shared.auth };` }, code: "PLATFORM_CONFIG_LOAD_FAILED", mentions: "a.ts" },
];

let emu: RunningEmulator;
let outside: TempTree;
beforeAll(async () => {
  emu = await startEmulator({ timings: INSTANT });
  outside = createTempTree({ "fn/index.mjs": FN });
  const platform = createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost });
  for (const name of ["__proto__", "keep", "constructor", "cafe\u0301"]) await platform.createBucket({ projectId: emu.projectId, branchId: emu.defaultBranchId, name });
});
afterAll(async () => {
  outside.remove();
  await emu.close();
});

let tree: TempTree | undefined;
afterEach(() => {
  tree?.remove();
  tree = undefined;
});

/** The platform's projects as the emulator stores them (ids, branches and every child). */
function platformState(): unknown {
  return emu.state.snapshot().projects;
}

async function attempt(row: Row, t: TempTree): Promise<unknown> {
  const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root, evaluationTimeoutMs: 300 });
  const connection = { projectId: emu.projectId, apiKey: emu.apiKey, apiHost: emu.apiHost };
  if (row.run === "createBranch") return createBranch(config, { ...connection, branchName: "hostile-new", api: createPlatformApi({ apiKey: emu.apiKey, apiHost: emu.apiHost }) });
  if (row.run === "apply-without-branch-id") return apply(config, { ...connection, updateExisting: true } as never);
  return apply(config, { ...connection, branchId: emu.defaultBranchId, updateExisting: true, allowDataLoss: true });
}

/** The message with its issue lines and the causes' messages, as a user reading it sees them. */
function fullText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) parts.push(e.message);
  return parts.join("\n");
}

describe("hostile policies are refused with a typed error naming the place, and nothing changes", () => {
  it.each(ROWS)("$name → $code", async (row) => {
    const t = createTempTree({ ".git/": "", ...row.files });
    tree = t;
    row.setup?.(t, outside);
    const before = platformState();

    const err = await attempt(row, t).then(() => undefined, (e: unknown) => e);

    expect(isPlatformError(err, row.code), `${row.name}: ${fullText(err)}`).toBe(true);
    const mentions = typeof row.mentions === "string" ? row.mentions : row.mentions(t, outside);
    expect(fullText(err)).toContain(mentions);
    expect(platformState()).toEqual(before);
  });
});

describe("collections are data: names JavaScript objects treat specially", () => {
  it("plans buckets named constructor, toString and hasOwnProperty like any other, and prunes only what the policy does not name", async () => {
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { buckets: { constructor: {}, toString: {}, hasOwnProperty: {}, keep: {} }, prune: { buckets: true } };` });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });

    const result = await plan(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, allowDataLoss: true });

    expect(result.changes.map((c) => `${c.action} ${c.address}`).sort()).toEqual(["create bucket.hasOwnProperty", "create bucket.toString", "delete bucket.__proto__", "delete bucket.cafe\u0301"]);
  });
});

describe("warnings a user must see", () => {
  it("PARENT_NOT_FOUND: a plan of an existing branch names a parent that does not exist", async () => {
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { branch: () => ({ parent: "no-such-branch" }) };` });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });

    const result = await plan(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost });

    expect(result.warnings).toContainEqual(expect.objectContaining({ code: "PARENT_NOT_FOUND", address: "branch", message: expect.stringContaining('"no-such-branch" does not exist') }));
  });

  it('bundler "none" excludes key and credential files, one warning naming each', async () => {
    const secrets = ["server.pem", "tls.key", "id_rsa", "id_ed25519.pub", ".npmrc", ".env.local"];
    const files = Object.fromEntries([["fn/index.mjs", FN], ["fn/lib/util.js", "export const x = 1;"], ...secrets.map((s) => [`fn/lib/${s}`, "secret"])]);
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { functions: { ${api("Api", ', bundler: "none"')} } };`, ...files });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });

    const result = await plan(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost });

    const excluded = result.warnings.filter((w) => w.code === "BUNDLER").map((w) => /excluded (\S+):/.exec(w.message)?.[1]);
    expect(excluded.sort()).toEqual(secrets.map((s) => `lib/${s}`).sort());
  });

  it("allowSourcesOutsideProject ships a source outside the project on purpose", async () => {
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { functions: { api: { name: "Api", source: ${JSON.stringify(outside.path("fn"))} } } };` });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });

    const result = await plan(config, { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost, allowSourcesOutsideProject: true });

    expect(result.changes.map((c) => c.address)).toContain("function.api");
  });
});

describe("the bundle cache between plan and upload: what is uploaded is exactly what was planned", () => {
  const cacheDirOf = (t: TempTree): string => t.path("node_modules/.cache/svc-config");
  /** The one cache entry of a one-function policy. */
  const entryOf = (t: TempTree): string => {
    const names = readdirSync(join(cacheDirOf(t), "v2")).filter((name) => name.endsWith(".entry"));
    if (names.length !== 1 || names[0] === undefined) throw new Error(`expected one cache entry, found ${names.join(", ")}`);
    return join(cacheDirOf(t), "v2", names[0]);
  };
  const zipOf = (entry: Buffer): Buffer => entry.subarray(entry.indexOf(0x0a) + 1);
  const ENTRY_ROWS: { name: string; change: (entry: string) => void; reason: string }[] = [
    { name: "truncated", change: (entry) => truncateSync(entry, readFileSync(entry).length - 10), reason: "where" },
    { name: "edited in place (one byte of the archive)", change: (entry) => { const bytes = readFileSync(entry); bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 1; writeFileSync(entry, bytes); }, reason: "not the planned ones" },
    { name: "swapped for another archive of the same identity (a rebuild by another process)", change: (entry) => { const bytes = readFileSync(entry); renameSync(withNewZip(entry, bytes, Buffer.concat([zipOf(bytes), Buffer.from("x")])), entry); }, reason: "where" },
    { name: "replaced by a symlink to /dev/zero", change: (entry) => { rmSync(entry); symlinkSync("/dev/zero", entry); }, reason: "a device" },
    { name: "replaced by a FIFO (never waited on)", change: (entry) => { rmSync(entry); execFileSync("mkfifo", [entry]); }, reason: "a FIFO" },
    { name: "removed", change: (entry) => rmSync(entry), reason: "ENOENT" },
  ];
  /** Writes a copy of `entry` with its record and `zip`, beside it; returns its path. */
  const withNewZip = (entry: string, bytes: Buffer, zip: Buffer): string => {
    writeFileSync(`${entry}.other`, Buffer.concat([bytes.subarray(0, bytes.indexOf(0x0a) + 1), zip]));
    return `${entry}.other`;
  };

  let own: RunningEmulator;
  beforeAll(async () => {
    own = await startEmulator({ timings: INSTANT });
  });
  afterAll(async () => own.close());

  it.each(ENTRY_ROWS)("an entry $name after the plan: the deployment fails with PLATFORM_BUNDLE_FAILED naming the function, and nothing is sent", async (row) => {
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { functions: { ${api()} } };`, "fn/index.mjs": FN });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
    const before = own.state.snapshot().projects;
    const onEvent = (event: { type: string }): void => {
      if (event.type === "plan") row.change(entryOf(t));
    };

    const err = await apply(config, { projectId: own.projectId, branchId: own.defaultBranchId, apiKey: own.apiKey, apiHost: own.apiHost, cacheDir: cacheDirOf(t), onEvent }).then(() => undefined, (e: unknown) => e);

    expect(isPlatformError(err, "PLATFORM_APPLY_FAILED"), fullText(err)).toBe(true);
    const failed = (err as { result: { failed: { change: { id: string }; error: { code: string; message: string } }[] } }).result.failed;
    expect(failed.map((f) => [f.change.id, f.error.code])).toEqual([["create:function.api", "PLATFORM_BUNDLE_FAILED"]]);
    expect(failed[0]?.error.message).toMatch(/^function api: its planned archive could not be read back from the bundle cache: /);
    expect(failed[0]?.error.message).toContain(row.reason);
    expect(own.state.snapshot().projects).toEqual(before);
  }, 30_000);

  it("an entry rewritten with another record around the same archive (a concurrent store) still deploys the planned bytes", async () => {
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { functions: { ${api()} } };`, "fn/index.mjs": FN });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
    const onEvent = (event: { type: string }): void => {
      if (event.type !== "plan") return;
      const entry = entryOf(t);
      const zip = zipOf(readFileSync(entry));
      writeFileSync(`${entry}.other`, Buffer.concat([Buffer.from(`${JSON.stringify({ identity: "another", inputs: [] })}\n`), zip]));
      renameSync(`${entry}.other`, entry);
    };

    const result = await apply(config, { projectId: own.projectId, branchId: own.defaultBranchId, apiKey: own.apiKey, apiHost: own.apiHost, cacheDir: cacheDirOf(t), onEvent, updateExisting: true });

    expect(result.failed).toEqual([]);
    expect(JSON.stringify(own.state.snapshot({ secrets: true }))).toContain(result.bundles.api?.zipSha256);
  }, 30_000);

  it("plan --verify: the replica's upload reads the same checked bytes, so an entry truncated after bundling fails the verification naming the function", async () => {
    const t = createTempTree({ ".git/": "", "svc.ts": `export default { functions: { ${api()} } };`, "fn/index.mjs": FN });
    tree = t;
    const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
    const onEvent = (event: { type: string; phase?: string }): void => {
      if (event.type === "bundle" && event.phase === "done") truncateSync(entryOf(t), readFileSync(entryOf(t)).length - 10);
    };

    const fresh = await startEmulator({ timings: INSTANT });
    try {
      const result = await plan(config, { projectId: fresh.projectId, branchId: fresh.defaultBranchId, apiKey: fresh.apiKey, apiHost: fresh.apiHost, cacheDir: cacheDirOf(t), onEvent, verify: true });

      expect(result.verification?.verified).toBe(false);
      expect(result.verification?.failures[0]).toMatchObject({ changeId: "create:function.api", code: "PLATFORM_BUNDLE_FAILED", message: expect.stringMatching(/^function api: its planned archive could not be read back/) });
    } finally {
      await fresh.close();
    }
  }, 30_000);

  it("two applies sharing one cache at once (each to its own platform) both deploy the planned archive", async () => {
    const other = await startEmulator({ timings: INSTANT });
    try {
      const t = createTempTree({ ".git/": "", "svc.ts": `export default { functions: { ${api()}, second: { name: "Second", source: "./fn2" } } };`, "fn/index.mjs": FN, "fn2/index.mjs": "export default () => new Response('two');\n" });
      tree = t;
      const run = async (on: RunningEmulator) => {
        const { config } = await loadConfigFromFile({ cwd: t.root, stopAt: t.root });
        return apply(config, { projectId: on.projectId, branchId: on.defaultBranchId, apiKey: on.apiKey, apiHost: on.apiHost, cacheDir: cacheDirOf(t), updateExisting: true });
      };

      const [a, b] = await Promise.all([run(own), run(other)]);

      expect([a.failed, b.failed]).toEqual([[], []]);
      expect(b.bundles).toEqual(a.bundles);
      for (const [on, result] of [[own, a], [other, b]] as const) {
        const state = JSON.stringify(on.state.snapshot({ secrets: true }));
        for (const slug of ["api", "second"]) expect(state).toContain(result.bundles[slug]?.zipSha256);
      }
    } finally {
      await other.close();
    }
  }, 30_000);
});

describe("through the svc command (one emulator, reset per row)", () => {
  let cliEmu: RunningEmulator;
  beforeAll(async () => {
    await ensureBuilt();
    cliEmu = await startEmulator({ timings: INSTANT, seed: seedWith(), apiKey: SEEDED.apiKey });
  }, 180_000);
  afterAll(async () => cliEmu.close());

  const env = (): Record<string, string> => ({ SVC_API_HOST: cliEmu.apiHost, SVC_API_KEY: SEEDED.apiKey, SVC_PROJECT_ID: SEEDED.projectId, SVC_BRANCH_ID: SEEDED.branchId });

describe("through the svc command: a typed refusal with its exit code, and nothing changed on the platform or on disk", () => {
  it.each(CLI_ROWS)("$name → exit $exit, $code", async (row) => {
    await cliEmu.state.reset(seedWith(row.branch, row.others));
    const t = createTempTree({ ".git/": "", ...row.files });
    tree = t;
    await row.setup?.({ dir: t.root, apiHost: cliEmu.apiHost });
    const before = { platform: cliEmu.state.snapshot().projects, files: localFiles(t.root) };

    const run = await runSvc(row.args, { cwd: t.root, env: { ...env(), ...row.env } });

    const output = run.stdout + run.stderr;
    expect(run.code, output).toBe(row.exit);
    expect(output).toContain(row.code);
    expect(output).toContain(row.mentions);
    expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(cliEmu.state.snapshot().projects).toEqual(before.platform);
    expect(localFiles(t.root)).toEqual(before.files);
  });
});

describe("through the svc command: what a policy leaves running never keeps it alive, crashes it or changes its exit code", () => {
  it.each([
    ["a top-level setInterval", "setInterval(() => undefined, 1000);", ["config", "plan"], 0, undefined],
    ["a spawned child process", 'import { spawn } from "node:child_process";\nspawn("sleep", ["60"], { stdio: "ignore" });', ["config", "plan"], 0, undefined],
    ["a top-level rejected promise", 'Promise.reject(new Error("rejected later"));', ["config", "plan"], 0, "rejected later"],
    ["a timer that throws during the apply", 'setTimeout(() => { throw new Error("thrown mid-apply"); }, 0);', ["config", "apply"], 0, "thrown mid-apply"],
  ])("%s: the command ends with its own exit code", async (_label, prelude, args, exit, warning) => {
    await cliEmu.state.reset(seedWith());
    const t = createTempTree({ ".git/": "", "svc.ts": `${prelude}\nexport default { buckets: { fresh: {} } };\n` });
    tree = t;

    const run = await runSvc(args, { cwd: t.root, env: env() });

    expect(run.code, run.stdout + run.stderr).toBe(exit);
    if (warning !== undefined) expect(run.stderr).toContain(`warning: code left running by the policy or a module it imports failed after loading, and was ignored: Error: ${warning}`);
    if (args[1] === "apply") expect(JSON.stringify(cliEmu.state.snapshot().projects)).toContain('"fresh"');
  });
});
});
