import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planDocumentSchema } from "../../../src/cli/views/json-schema.js";
import { useEmulatorProject } from "./harness.js";

const { emu, cwd, svc } = useEmulatorProject();
const VERIFIED = "Verified on a local replica: applying this plan converges";

describe("svc config plan --verify", () => {
  it("says in one line under the summary that the plan converges on a replica, in text, Markdown and JSON, and mutates nothing", async () => {
    const before = emu().state.requests(1000).length;
    const text = await svc(["config", "plan", "--verify"]);
    expect(text.code).toBe(0);
    expect(text.stdout.trimEnd().split("\n").slice(-2)).toEqual(["Plan: 3 to create, 1 to update, 0 to delete; 0 conflicts", VERIFIED]);
    const md = await svc(["config", "plan", "--verify", "--markdown"]);
    expect(md.stdout).toContain(`**Plan: 3 to create, 1 to update, 0 to delete; 0 conflicts**\n\n${VERIFIED}\n`);
    const json = planDocumentSchema.parse(JSON.parse((await svc(["config", "plan", "--verify", "--json"])).stdout));
    expect(json.verification).toMatchObject({ verified: true, residual: [], failures: [], unchecked: [] });
    expect(new Set(emu().state.requests(1000).slice(before).map((r) => r.method))).toEqual(new Set(["GET"]));
  });

  it("a saved plan records the verification", async () => {
    const run = await svc(["config", "plan", "--verify", "--out", "plan.json", "--quiet"]);
    expect(run.code).toBe(0);
    const saved = JSON.parse(readFileSync(join(cwd(), "plan.json"), "utf8")) as { verification?: { verified: boolean } };
    expect(saved.verification?.verified).toBe(true);
  });

  it("a plan whose apply would be refused is not verified, and says why", async () => {
    await svc(["config", "apply", "--yes", "--branch", emu().defaultBranchId]);
    const policy = readFileSync(join(cwd(), "svc.ts"), "utf8").replace('access: "public_read"', 'access: "private"');
    writeFileSync(join(cwd(), "svc.ts"), policy);
    const run = await svc(["config", "plan", "--verify"]);
    expect(run.stdout).toContain("Not verified on a local replica: 1 failed (BUCKET_ACCESS_IMMUTABLE: bucket avatars blocks apply: bucket avatars has access public_read;");
  });
});
