import { describe, expect, it } from "vitest";
import type { ApiBranch, PlatformApi } from "../../../src/api/platform-api.js";
import { confirmationQuestion, confirmationRequired, gateReasons, grantedByFlags } from "../../../src/cli/gate.js";
import type { CliIo } from "../../../src/cli/io.js";
import { isLoopbackHost, normalizeApiHost, resolveBranch, resolveCredentials } from "../../../src/cli/target.js";
import { renderTargetBlock, renderTargetLine } from "../../../src/cli/views/target-echo.js";
import { loadResult } from "./fixtures.js";

function io(env: Record<string, string>): CliIo {
  return { env, cwd: "/", now: () => 0, stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin };
}

describe("credential resolution", () => {
  it.each([
    ["a flag over the variable", { projectId: "flag-proj" }, { SVC_PROJECT_ID: "env-proj", SVC_API_KEY: "k" }, "flag-proj", "flag"],
    ["the variable without a flag", {}, { SVC_PROJECT_ID: "env-proj", SVC_API_KEY: "k" }, "env-proj", "env"],
  ])("takes the project from %s", (_name, flags, env, value, source) => {
    const creds = resolveCredentials(flags, io(env), new Map(), { project: true });
    expect(creds.projectId).toMatchObject({ value, source });
  });

  it("names the --env file a value came from", () => {
    const creds = resolveCredentials({}, io({ SVC_PROJECT_ID: "p", SVC_API_KEY: "k" }), new Map([["SVC_API_KEY", ".env.ci"]]), { project: true });
    expect(creds.apiKey).toMatchObject({ source: "env-file", label: "SVC_API_KEY from --env .env.ci" });
  });

  it("fails with CLI_MISSING_PROJECT and then PLATFORM_MISSING_API_KEY", () => {
    expect(() => resolveCredentials({}, io({ SVC_API_KEY: "k" }), new Map(), { project: true })).toThrow(expect.objectContaining({ code: "CLI_MISSING_PROJECT" }));
    expect(() => resolveCredentials({}, io({ SVC_PROJECT_ID: "p" }), new Map(), { project: true })).toThrow(expect.objectContaining({ code: "PLATFORM_MISSING_API_KEY" }));
  });

  it.each([
    ["https://api.example.test/", "https://api.example.test/api/v2"],
    ["  http://127.0.0.1:4010/api/v2/ ", "http://127.0.0.1:4010/api/v2"],
    ["https://api.example.test/custom", "https://api.example.test/custom"],
  ])("normalises the API host %j", (raw, expected) => {
    expect(normalizeApiHost(raw)).toBe(expected);
  });

  it.each([
    ["http://localhost:4010/api/v2", true],
    ["http://127.8.9.1/api/v2", true],
    ["http://[::1]:4010/api/v2", true],
    ["http://emulator:4010/api/v2", false],
  ])("knows whether %s is loopback", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it("marks plain http to another host as insecure", () => {
    const creds = resolveCredentials({ apiHost: "http://emulator:4010" }, io({ SVC_PROJECT_ID: "p", SVC_API_KEY: "k" }), new Map(), { project: true });
    expect(creds.apiHost).toMatchObject({ value: "http://emulator:4010/api/v2", insecure: true, source: "flag" });
  });
});

describe("branch resolution", () => {
  const branches: ApiBranch[] = [
    { id: "br-main-1", name: "main", default: true, protected: true, created_at: "" },
    { id: "br-dev-2", name: "dev", default: false, protected: false, created_at: "" },
    { id: "br-odd-3", name: "br-dev-2", default: false, protected: false, created_at: "" },
  ];
  const api = { listBranches: async () => branches } as unknown as PlatformApi;
  const flag = (value: string) => ({ value, source: "flag" as const, label: "--branch" });

  it.each([
    ["a bare name", "dev", "br-dev-2", "name"],
    ["a bare id", "br-main-1", "br-main-1", "id"],
    ["an id: prefix", "id:br-dev-2", "br-dev-2", "id"],
    ["a name: prefix", "name:br-dev-2", "br-odd-3", "name"],
  ])("finds %s", async (_name, ref, id, match) => {
    await expect(resolveBranch(api, "p", flag(ref))).resolves.toMatchObject({ branch: { id }, match });
  });

  it("falls back to the default branch", async () => {
    await expect(resolveBranch(api, "p", undefined)).resolves.toMatchObject({ branch: { id: "br-main-1" }, match: "default" });
  });

  it("refuses a value that is one branch's id and another's name", async () => {
    await expect(resolveBranch(api, "p", flag("br-dev-2"))).rejects.toMatchObject({ code: "CLI_BRANCH_AMBIGUOUS" });
  });

  it("reads SVC_BRANCH_ID as an id only", async () => {
    await expect(resolveBranch(api, "p", { value: "dev", source: "env", label: "SVC_BRANCH_ID" })).rejects.toMatchObject({ code: "PLATFORM_BRANCH_NOT_FOUND" });
  });

  it("lists the branches that exist when none matches", async () => {
    await expect(resolveBranch(api, "p", flag("feature-x"))).rejects.toMatchObject({
      code: "PLATFORM_BRANCH_NOT_FOUND",
      details: { available: [{ name: "main", id: "br-main-1" }, { name: "dev", id: "br-dev-2" }, { name: "br-dev-2", id: "br-odd-3" }] },
    });
  });
});

describe("target echo", () => {
  const info = {
    project: { id: "calm-river-123456", name: "my-app", label: "SVC_PROJECT_ID" },
    branch: { name: "preview/pr-42", id: "br-young-leaf-482913", label: "--branch, matched by name" },
    api: { host: "https://api.example.test/api/v2", label: "default", insecure: false },
    config: { path: "svc.ts", label: "search" },
    keyLabel: "SVC_API_KEY from --env .env.ci",
  };

  it("prints the block with sources in brackets and never the key", () => {
    expect(renderTargetBlock(info)).toBe(
      [
        "Project  calm-river-123456 (my-app)             [SVC_PROJECT_ID]",
        "Branch   preview/pr-42 (br-young-leaf-482913)   [--branch, matched by name]",
        "API      https://api.example.test/api/v2        [default]",
        "Config   svc.ts                                 [search]",
        "Key      set                                    [SVC_API_KEY from --env .env.ci]",
        "",
      ].join("\n"),
    );
  });

  it("prints one line for machine-readable modes", () => {
    expect(renderTargetLine(info)).toBe("Target: project calm-river-123456, branch preview/pr-42 (br-young-leaf-482913), api https://api.example.test/api/v2\n");
  });

  it("keeps the sources in one column when a value is longer than the column", () => {
    const lines = renderTargetBlock({ ...info, branch: { ...info.branch, name: "main", id: "br-small-cloud-973985", protected: true, isDefault: true } }).trimEnd().split("\n");
    expect(lines[1]).toBe("Branch   main (br-small-cloud-973985), protected, default  [--branch, matched by name]");
    expect(new Set(lines.map((l) => l.indexOf("[")))).toEqual(new Set([lines[1]?.indexOf("[")]));
  });

  it("marks an insecure API line", () => {
    expect(renderTargetBlock({ ...info, api: { ...info.api, insecure: true } })).toMatch(/^API .*\[default\] \[INSECURE\]$/m);
  });
});

describe("confirmation gate", () => {
  const result = loadResult("plan-mixed");
  const input = { changes: result.changes, branchName: "main", branchProtected: true, inferredTarget: true };
  const none = { updateExisting: false, allowProtected: false, allowDataLoss: false, yes: false };

  it("finds every reason in the documented order", () => {
    expect(gateReasons(input).map((r) => r.kind)).toEqual(["override", "protected", "data-loss", "inferred"]);
  });

  it("lets --yes grant overrides and protection but never data loss or an inferred target", () => {
    const yes = { ...none, yes: true };
    expect(gateReasons(input).filter((r) => !grantedByFlags(r, yes)).map((r) => r.kind)).toEqual(["data-loss", "inferred"]);
  });

  it("asks with one bullet per reason", () => {
    const question = confirmationQuestion({ changeCount: 6, branchName: "main", branchId: "br-quiet-sun-123456", projectId: "calm-river-123456", reasons: gateReasons({ ...input, inferredTarget: false }) });
    expect(question.join("\n")).toBe(
      "This apply needs confirmation:\n" +
        "  - 4 changes override existing settings or delete resources (--update-existing)\n" +
        '  - branch "main" is protected (--allow-protected)\n' +
        "  - 1 change deletes stored data: bucket.tmp (--allow-data-loss)\n" +
        "Apply 6 changes to main (br-quiet-sun-123456) in calm-river-123456?",
    );
  });

  it("names the exact missing flags when it cannot ask", () => {
    const missing = gateReasons({ ...input, inferredTarget: false }).filter((r) => r.kind !== "data-loss");
    const err = confirmationRequired(missing, { ...input, inferredTarget: false });
    expect(err.code).toBe("CLI_CONFIRMATION_REQUIRED");
    expect(err.message).toBe(
      "This apply needs confirmation, and this run cannot ask (not an interactive terminal, or --yes given): " +
        '4 changes override existing settings or delete resources (--update-existing); branch "main" is protected (--allow-protected).',
    );
    expect(err.hint).toBe('add --update-existing --allow-protected to apply 4 override changes to protected branch "main"');
  });

  it("names the branch flag for an inferred target", () => {
    const err = confirmationRequired(gateReasons(input).filter((r) => r.kind === "inferred"), input);
    expect(err.hint).toContain("--branch main or SVC_BRANCH_ID");
  });
});
