import { describe, expect, it } from "vitest";
import { parse } from "dotenv";
import { cleanupCandidates } from "../../../src/cli/commands/branch-cleanup.js";
import { upsertEnvText } from "../../../src/cli/env-upsert.js";
import { gitBranchNameIssue, namesOfRecordedBranch, sanitizeGitBranch, stripHeadsPrefix, SYNC_ANNOTATION, syncBranchName } from "../../../src/cli/sync-names.js";
import { functionUrlKey } from "../../../src/cli/write-env.js";
import type { ApiListedBranch } from "../../../src/api/platform-api.js";

const URL_A = "postgresql://app:pw-one@host-pooler/appdb?sslmode=require";
const URL_B = "postgresql://app:pw-two@host/appdb?sslmode=require";
const HEADER = "# svc: branch preview/x";
const options = { header: HEADER.slice(2) };
const entries = [
  { name: "DATABASE_URL", value: URL_A },
  { name: "DATABASE_URL_DIRECT", value: URL_B },
];

describe("upsertEnvText", () => {
  it.each([
    { name: "a missing file gets the header and the variables", existing: null, expected: `${HEADER}\nDATABASE_URL=${URL_A}\nDATABASE_URL_DIRECT=${URL_B}\n` },
    { name: "other lines stay and new variables follow a blank line", existing: "# mine\nOTHER=1\n", expected: `# mine\nOTHER=1\n\n${HEADER}\nDATABASE_URL=${URL_A}\nDATABASE_URL_DIRECT=${URL_B}\n` },
    { name: "an assigned variable is rewritten in place", existing: "A=1\nDATABASE_URL=old\nB=2\n", expected: `A=1\nDATABASE_URL=${URL_A}\nB=2\n\n${HEADER}\nDATABASE_URL_DIRECT=${URL_B}\n` },
    { name: "a later duplicate of a variable goes, so the new value wins either way", existing: "DATABASE_URL=old\nX=1\nexport DATABASE_URL=older\n", expected: `DATABASE_URL=${URL_A}\nX=1\n\n${HEADER}\nDATABASE_URL_DIRECT=${URL_B}\n` },
    { name: "a multi-line quoted value is replaced whole", existing: 'DATABASE_URL="first\nsecond"\nKEEP=yes\n', expected: `DATABASE_URL=${URL_A}\nKEEP=yes\n\n${HEADER}\nDATABASE_URL_DIRECT=${URL_B}\n` },
    { name: "CRLF files stay CRLF and a BOM is kept", existing: "\uFEFFA=1\r\nDATABASE_URL_DIRECT=x\r\n", expected: `\uFEFFA=1\r\nDATABASE_URL_DIRECT=${URL_B}\r\n\r\n${HEADER}\r\nDATABASE_URL=${URL_A}\r\n` },
  ])("$name", ({ existing, expected }) => {
    expect(upsertEnvText(existing, entries, options)).toBe(expected);
  });

  it("removes stale names the writer owns and nothing else", () => {
    const text = upsertEnvText("SVC_FUNCTION_OLD_URL=https://old\nMY_SVC_FUNCTION_OLD_URL=keep\n", [{ name: "SVC_FUNCTION_NEW_URL", value: "https://new" }], {
      ...options,
      isStale: (name) => /^SVC_FUNCTION_[A-Z0-9_]+_URL$/.test(name),
    });
    expect(parse(text)).toEqual({ MY_SVC_FUNCTION_OLD_URL: "keep", SVC_FUNCTION_NEW_URL: "https://new" });
  });

  it("quotes a value dotenv would otherwise misread, and dotenv reads it back", () => {
    const value = "postgresql://a:p#w d@h/db";
    expect(parse(upsertEnvText("", [{ name: "DATABASE_URL", value }], options))).toEqual({ DATABASE_URL: value });
  });

  it("writes a header naming a hostile role as one comment line, so it sets no variable", () => {
    const text = upsertEnvText("", entries, { header: "svc: branch main (br-1), database neondb, role r\nNODE_OPTIONS=--require=/tmp/x.cjs\r\u202e" });

    expect(text.split("\n")[0]).toBe("# svc: branch main (br-1), database neondb, role r\\u000aNODE_OPTIONS=--require=/tmp/x.cjs\\u000d\\u202e");
    expect(Object.keys(parse(text))).toEqual(["DATABASE_URL", "DATABASE_URL_DIRECT"]);
  });

  it("rewrites the header above variables it rewrites in place, so it never names the previous branch", () => {
    const existing = "A=1\n\n# svc: branch preview/feature/login (br-old), database neondb, role neondb_owner\nDATABASE_URL=old\nDATABASE_URL_DIRECT=old\n";

    expect(upsertEnvText(existing, entries, { header: "svc: branch main (br-main), database neondb, role neondb_owner" })).toBe(
      `A=1\n\n# svc: branch main (br-main), database neondb, role neondb_owner\nDATABASE_URL=${URL_A}\nDATABASE_URL_DIRECT=${URL_B}\n`,
    );
    expect(upsertEnvText("# my own note\nDATABASE_URL=old\n", entries, options)).toMatch(/^# my own note\nDATABASE_URL=/);
  });

  it.each([
    ["a name that is not a variable name", [{ name: "X\nNODE_OPTIONS", value: "v" }], '"X\\u000aNODE_OPTIONS" is not a variable name'],
    ["a value with a NUL", [{ name: "DATABASE_URL", value: "postgresql://a\u0000b@h/db" }], "a value to write holds a control character (\\u0000); nothing was written."],
    ["a value with a bidi override", [{ name: "DATABASE_URL", value: "https://h/\u202e" }], "a bidirectional-override character (\\u202e)"],
  ])("refuses %s, never quoting the value", (_name, refused, message) => {
    expect(() => upsertEnvText("", refused, options)).toThrow(message);
  });
});

describe("functionUrlKey", () => {
  it("names function URL variables after the slug", () => {
    expect(functionUrlKey("", "hello")).toBe("SVC_FUNCTION_HELLO_URL");
    expect(functionUrlKey("PV_", "send-mail.v2")).toBe("PV_SVC_FUNCTION_SEND_MAIL_V2_URL");
  });
});

describe("sync branch names", () => {
  it.each([
    ["feature/Login-Page", "feature/login-page"],
    ["Fix: bug #12!", "fix-bug-12"],
    ["a//b", "a/b"],
    ["--weird--/", "weird"],
    ["dependabot/npm_and_yarn/vite-5.1.0", "dependabot/npm_and_yarn/vite-5.1.0"],
  ])("sanitises %j to %j", (input, expected) => {
    expect(sanitizeGitBranch(input)).toBe(expected);
  });

  it("fills the template and refuses templates without exactly one placeholder", () => {
    expect(syncBranchName("preview/{git-branch}", "Feature/X")).toBe("preview/feature/x");
    expect(syncBranchName("pr-{git-branch}-db", "x")).toBe("pr-x-db");
    expect(() => syncBranchName("preview", "x")).toThrow(/exactly once/);
    expect(() => syncBranchName("{git-branch}/{git-branch}", "x")).toThrow(/exactly once/);
    expect(() => syncBranchName("preview/{git-branch}", "!!!")).toThrow(/no ASCII letters or digits/);
  });

  it("keeps long names within 256 characters and distinct", () => {
    const a = syncBranchName("preview/{git-branch}", `${"a".repeat(300)}-one`);
    const b = syncBranchName("preview/{git-branch}", `${"a".repeat(300)}-two`);
    expect(a.length).toBe(256);
    expect(b.length).toBe(256);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^preview\/a+-[0-9a-f]{8}$/);
  });
});

describe("git branch names given to sync and cleanup", () => {
  it.each([
    ["feat/login", null],
    ["refs/remotes/origin/feat", "names a ref that is not a branch"],
    ["origin/feat", "names a remote-tracking branch of origin; give the branch's own name (feat)"],
    ["upstream/feat", "names a remote-tracking branch of upstream"],
    ["-x", "starts with -"],
  ])("%j: %s", (name, issue) => {
    const found = gitBranchNameIssue(name, ["upstream"]);
    if (issue === null) expect(found).toBeNull();
    else expect(found).toContain(issue);
  });

  it("reads a recorded mark as every name it can stand for, so cleanup keeps a preview an older sync marked origin/feat", () => {
    expect(namesOfRecordedBranch("refs/heads/feat", [])).toEqual(["feat"]);
    expect(namesOfRecordedBranch("origin/feat", [])).toEqual(["origin/feat", "feat"]);
    expect(namesOfRecordedBranch("refs/remotes/fork/feat", ["fork"])).toEqual(["refs/remotes/fork/feat", "feat"]);
    expect(stripHeadsPrefix("refs/heads/refs/heads/x")).toBe("refs/heads/x");
  });
});

describe("cleanupCandidates", () => {
  const branch = (name: string, extra: Partial<ApiListedBranch> = {}): ApiListedBranch => ({ id: `br-${name.replace(/\W/g, "-")}`, name, default: false, protected: false, created_at: "2026-01-01T00:00:00Z", annotation: {}, ...extra });
  const synced = (name: string, gitBranch: string, extra: Partial<ApiListedBranch> = {}): ApiListedBranch => branch(name, { annotation: { [SYNC_ANNOTATION]: gitBranch }, ...extra });

  it("deletes only branches sync made whose git branch is gone, and keeps default and protected ones", () => {
    const branches = [
      branch("main", { default: true }),
      branch("preview/manual"),
      synced("preview/gone", "gone"),
      synced("preview/alive", "alive"),
      synced("preview/locked", "locked-gone", { protected: true }),
      synced("preview/was-default", "old", { default: true }),
    ];
    const alive = new Set(["alive", "main", "manual"]);
    const { doomed, kept } = cleanupCandidates(branches, (g) => !alive.has(g));
    expect(doomed.map((b) => b.name)).toEqual(["preview/gone"]);
    expect(kept.map((b) => [b.name, b.reason])).toEqual([
      ["preview/locked", "protected"],
      ["preview/was-default", "the project's default branch"],
    ]);
  });
});

