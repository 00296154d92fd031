import { readFileSync } from "node:fs";
import type { PushResult } from "../../../src/model/plan.js";
import type { ViewTarget } from "../../../src/cli/views/view-model.js";

/** Loads a hand-made PushResult from fixtures/cli/. */
export function loadResult(name: string): PushResult {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/cli/${name}.json`, import.meta.url), "utf8")) as PushResult;
}

/** The target the view tests render against. */
export const TARGET: ViewTarget = {
  projectId: "calm-river-123456",
  projectName: "my-app",
  orgId: null,
  branchId: "br-quiet-sun-123456",
  branchName: "main",
  branchProtected: true,
  branchIsDefault: true,
  apiHost: "https://api.example.test/api/v2",
  configPath: "svc.ts",
  sources: { projectId: "env", branch: "flag", apiKey: "env", apiHost: "default" },
};

/** A secret planted in the fixture that no view may print. */
export const PLANTED_SECRET = "planted-secret-value-0001";
