import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { EnginePort } from "../../../src/cli/engine-port.js";
import type { CliIo } from "../../../src/cli/io.js";
import { main } from "../../../src/cli/main.js";
import { ErrorCode } from "../../../src/errors/codes.js";
import { PlatformError } from "../../../src/errors/platform-error.js";

const PROJECT = { id: "calm-river-123456", name: "my-app", org_id: null };
const BRANCH = { id: "br-quiet-sun-123456", name: "main", default: true, protected: false };
/** The plan's first wave: its own project read, then its branch read (where the fake stops it). */
const PLAN = [`GET project ${PROJECT.id} (key)`, "plan"] as const;

/** What a fake engine saw, in order: `load:start`, `load:end`, `GET project <id> (key)`, `GET branches`, `plan` (the plan's branch read). */
interface Recorded {
  steps: string[];
  err: () => string;
}

interface FakeOptions {
  env?: Record<string, string>;
  /** The policy load throws this error instead of returning a policy. */
  policyError?: Error;
  /** The policy load sets these variables while it is evaluated, as a policy may. */
  policySets?: Record<string, string>;
  /** The project read answers 404. */
  projectMissing?: boolean;
  /** The project read's error names the key it was sent with (a hostile or careless platform). */
  errorNamesKey?: boolean;
}

/** Runs `svc config plan --quiet` against a fake engine whose policy load takes a few event-loop turns. */
async function runPlan(options: FakeOptions): Promise<Recorded & { code: number }> {
  const steps: string[] = [];
  let err = "";
  const env: Record<string, string | undefined> = {
    SVC_API_KEY: "svc_test_key_0001",
    SVC_PROJECT_ID: PROJECT.id,
    SVC_API_HOST: "https://api.example.test",
    SVC_FINGERPRINT_KEY: "5eed".repeat(16),
    ...options.env,
  };
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: { write: (t: string) => ((err += t), true) },
    stdin: new PassThrough(),
    env,
    cwd: "/",
    now: () => 0,
  };
  const turns = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const engine = {
    createPlatformApi: (o: { apiKey: string }) => ({
      getProject: async ({ projectId }: { projectId: string }) => {
        steps.push(`GET project ${projectId} (${o.apiKey === env.SVC_API_KEY ? "key" : "other key"})`);
        if (options.projectMissing === true) throw new PlatformError(ErrorCode.NOT_FOUND, `project ${projectId} not found${options.errorNamesKey === true ? ` for key ${o.apiKey}` : ""}`);
        return PROJECT;
      },
      listBranches: async () => {
        steps.push("GET branches");
        return [BRANCH];
      },
      // The plan's first wave (after its own project read): where the test stops.
      getBranch: async () => {
        steps.push("plan");
        throw new PlatformError(ErrorCode.INVALID_OPTIONS, "planned (test stops here)");
      },
      listEndpoints: async () => [],
    }),
    loadConfigFromFile: async () => {
      steps.push("load:start");
      await turns();
      Object.assign(env, options.policySets ?? {});
      steps.push("load:end");
      if (options.policyError !== undefined) throw options.policyError;
      return { config: {}, resolvedPath: "/svc.ts" };
    },
    loadChecksFromFile: async () => ({ checks: [] }),
  } as unknown as EnginePort;
  const code = await main(["config", "plan", "--quiet", "--config", "svc.ts"], { io, signal: new AbortController().signal, loadEngine: async () => engine });
  return { code, steps, err: () => err };
}

describe("the target's reads while svc.ts is evaluated", () => {
  it("reads the project and its branches before the policy has loaded, and plans once both are known", async () => {
    const run = await runPlan({});
    expect(run.steps).toEqual([`GET project ${PROJECT.id} (key)`, "GET branches", "load:start", "load:end", ...PLAN]);
  });

  it("reports the policy's error, not the target's, when both are wrong", async () => {
    const run = await runPlan({ projectMissing: true, policyError: new PlatformError(ErrorCode.CONFIG_LOAD_FAILED, "svc.ts: functions.api.source is required") });
    expect(run.err()).toContain("PLATFORM_CONFIG_LOAD_FAILED");
    expect(run.err()).not.toContain("PLATFORM_NOT_FOUND");
    expect(run.steps).not.toContain("plan");
  });

  it("reports the target's error once the policy has loaded", async () => {
    const run = await runPlan({ projectMissing: true });
    expect(run.err()).toContain("PLATFORM_NOT_FOUND");
    expect(run.steps.indexOf("load:end")).toBeGreaterThan(-1);
    expect(run.steps).not.toContain("plan");
  });

  it("reports a missing project id after the policy's error, and reads nothing", async () => {
    const both = await runPlan({ env: { SVC_PROJECT_ID: "" }, policyError: new PlatformError(ErrorCode.CONFIG_LOAD_FAILED, "svc.ts does not parse") });
    expect(both.err()).toContain("PLATFORM_CONFIG_LOAD_FAILED");
    expect(both.err()).not.toContain("CLI_MISSING_PROJECT");
    const alone = await runPlan({ env: { SVC_PROJECT_ID: "" } });
    expect(alone.err()).toContain("CLI_MISSING_PROJECT");
    expect(alone.steps).toEqual(["load:start", "load:end"]);
  });

  it("reads the target again when the policy changed the variables it was resolved from", async () => {
    const run = await runPlan({ policySets: { SVC_PROJECT_ID: "other-project-654321" } });
    expect(run.steps).toEqual([
      `GET project ${PROJECT.id} (key)`, "GET branches", "load:start", "load:end",
      "GET project other-project-654321 (key)", "GET branches", ...PLAN,
    ]);
  });

  // "(key)": sent with the key the variable held when the request was made.
  it.each([
    ["a proxy variable", { HTTPS_PROXY: "http://proxy.example.test:3128" }],
    // Hostile rows: the early reads were made with another key, or without the proxy.
    ["a lower-case proxy variable", { https_proxy: "http://proxy.example.test:3128" }],
    ["another API key (the early reads' key is never used again)", { SVC_API_KEY: "svc_test_key_0002" }],
  ])("reads the target again when the policy set %s", async (_name, policySets) => {
    const run = await runPlan({ policySets });
    expect(run.steps).toEqual([
      `GET project ${PROJECT.id} (key)`, "GET branches", "load:start", "load:end",
      `GET project ${PROJECT.id} (key)`, "GET branches", ...PLAN,
    ]);
  });

  it("reads the target after the policy without a fingerprint key", async () => {
    const run = await runPlan({ env: { SVC_FINGERPRINT_KEY: "" } });
    expect(run.steps).toEqual(["load:start", "load:end", `GET project ${PROJECT.id} (key)`, "GET branches", ...PLAN]);
  });

  // Hostile rows: a policy that moves the host, a failed read that names the key.
  it("warns before sending the key when the policy moved the host to plain http, and reads the target there again", async () => {
    const run = await runPlan({ policySets: { SVC_API_HOST: "http://api.example.test" } });
    expect(run.steps).toEqual([
      `GET project ${PROJECT.id} (key)`, "GET branches", "load:start", "load:end",
      `GET project ${PROJECT.id} (key)`, "GET branches", ...PLAN,
    ]);
    expect(run.err()).toContain("the API key travels in clear text");
  });

  it("prints no key from a failed read: the early read's key, discarded, and the key in use", async () => {
    const moved = await runPlan({ projectMissing: true, errorNamesKey: true, policySets: { SVC_API_KEY: "svc_test_key_0002" } });
    expect(moved.err()).toContain("PLATFORM_NOT_FOUND");
    const same = await runPlan({ projectMissing: true, errorNamesKey: true });
    expect(same.err()).toContain("PLATFORM_NOT_FOUND");
    for (const err of [moved.err(), same.err()]) {
      expect(err).not.toContain("svc_test_key_0001");
      expect(err).not.toContain("svc_test_key_0002");
    }
  });

  // Hostile rows: TLS verification off. Node reads the variable at each new connection, so the key must not leave before the policy ran.
  it("sends nothing before the policy has loaded while TLS verification is off (NODE_TLS_REJECT_UNAUTHORIZED=0): the policy may turn it back on", async () => {
    const run = await runPlan({ env: { NODE_TLS_REJECT_UNAUTHORIZED: "0" }, policySets: { NODE_TLS_REJECT_UNAUTHORIZED: "1" } });
    expect(run.steps).toEqual(["load:start", "load:end", `GET project ${PROJECT.id} (key)`, "GET branches", ...PLAN]);
  });

  it("reads the target again when the policy turned TLS verification off while the early reads were in flight", async () => {
    const run = await runPlan({ policySets: { NODE_TLS_REJECT_UNAUTHORIZED: "0" } });
    expect(run.steps).toEqual([
      `GET project ${PROJECT.id} (key)`, "GET branches", "load:start", "load:end",
      `GET project ${PROJECT.id} (key)`, "GET branches", ...PLAN,
    ]);
  });

  it("sends nothing to a plain-http host before the policy has loaded and the warning is printed", async () => {
    const run = await runPlan({ env: { SVC_API_HOST: "http://api.example.test" } });
    expect(run.steps).toEqual(["load:start", "load:end", `GET project ${PROJECT.id} (key)`, "GET branches", ...PLAN]);
    expect(run.err()).toContain("the API key travels in clear text");
  });
});
