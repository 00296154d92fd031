/**
 * A kind added to the registry alone is pulled: its keys of the tuning and its comment lines are in
 * the rendered svc.ts, and a plan of that file, against the emulator over real HTTP, is a no-op. Its
 * static key and its prune flag are validated, resolved and planned like the other kinds'.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { type RunningEmulator, type SeedDocument, startEmulator } from "../../../src/emulator/index.js";
import { ConfigValidationError, defineConfig, plan, pullConfig, renderPolicySource, resolvePolicy } from "../../../src/v1.js";
import { createTempTree } from "../../helpers/temp-dir.js";
import { GADGET } from "./gadget-kind.js";

// The registry as a new kind would leave it: its module first in the list, the real ones after (the modules join their
// stages from this list). No other file changes.
vi.mock("../../../src/kinds/list.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/kinds/list.js")>();
  const { kindRegistry } = await import("../../../src/kinds/registry.js");
  const { resolvePolicyWith } = await import("../../../src/config/resolve-policy.js");
  const { readStaticPolicy } = await import("../../../src/config/validate-static.js");
  const { policyKindsOf } = await import("../../../src/config/policy-kinds.js");
  const { renderPolicySourceWith } = await import("../../../src/inspect/render-policy-source.js");
  const { gadgetLight } = await import("./gadget-kind.js");
  const list = [gadgetLight, ...real.KIND_LIST];
  const pulls = list.flatMap((kind) => (kind.pull === undefined ? [] : [kind.pull]));
  const policyKinds = policyKindsOf(list);
  return {
    ...real,
    ...kindRegistry(list),
    KIND_LIST: list,
    KIND_PULLS: pulls,
    POLICY_KINDS: policyKinds,
    defineConfig: (value: unknown) => readStaticPolicy(policyKinds, value).config,
    validatePolicy: (...[value, context]: Parameters<typeof real.validatePolicy>) => readStaticPolicy(policyKinds, value, context).config,
    resolvePolicy: (...[config, target, options]: Parameters<typeof real.resolvePolicy>) => resolvePolicyWith(policyKinds, config, target, options),
    renderPolicySource: (pulled: Parameters<typeof real.renderPolicySource>[0]) => renderPolicySourceWith(pulls, policyKinds.keyOrder, pulled),
  };
});

const TIMINGS = { opSchedulingMs: 0, opRunMs: 5, deployPendingMs: 0, deployBuildMs: 5, domainActivationMs: 0 };
/** A branch with a read-write compute and four read-only endpoints, one of them unnamed. */
const SEED = JSON.parse(readFileSync(new URL("../../../fixtures/read-replicas/live.json", import.meta.url), "utf8")) as SeedDocument;

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("a kind with a pull stage, added to the registry alone", () => {
  it("writes its tuning key and its comment lines into the pulled svc.ts, which then plans clean", async () => {
    const emu = await startEmulator({ seed: SEED, timings: TIMINGS, log: "off" });
    emulator = emu;
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost };
    const unnamed = (await createPlatformApi(options).listEndpoints(options)).filter((e) => e.type === "read_only" && e.name === undefined).map((e) => e.id);
    expect(unnamed.length).toBeGreaterThan(0);

    const source = renderPolicySource(await pullConfig(options));
    expect(source).toContain(`    unnamedReplicas: ${unnamed.length},\n`);
    expect(source).toContain(["// Read-only endpoints without a name (name them to declare them under `readReplicas`):", ...unnamed.map((id) => `//   "${id}"`)].join("\n"));

    const tree = createTempTree({ ".git/": "", "svc.ts": source });
    try {
      const { config } = await loadConfigFromFile({ cwd: tree.root });
      const again = await plan(config, options);
      expect([again.changes, again.conflicts]).toEqual([[], []]);
    } finally {
      tree.remove();
    }
    // The kind plans what differs: a policy stating another count is not a no-op.
    const other = await plan(defineConfig({ branch: () => ({ unnamedReplicas: 0 }) as object }), options);
    expect(other.changes.map((c) => [c.address, c.after])).toEqual([["gadget", { count: 0 }]]);
  });

  it("validates, resolves and plans its static key, and prunes with its own prune flag", async () => {
    const emu = await startEmulator({ seed: SEED, timings: TIMINGS, log: "off" });
    emulator = emu;
    const options = { projectId: emu.projectId, branchId: emu.defaultBranchId, apiKey: emu.apiKey, apiHost: emu.apiHost };
    const unnamed = (await createPlatformApi(options).listEndpoints(options)).filter((e) => e.type === "read_only" && e.name === undefined).map((e) => e.id);
    const [known] = unnamed;
    expect(known).toBeDefined();
    // The public type does not know the kind's key: the policies are built untyped, as a JavaScript svc.js would.
    const policy = (value: object) => defineConfig(value as Parameters<typeof defineConfig>[0]);

    let invalid: unknown;
    try {
      policy({ gadgets: { [String(known)]: "yes" }, prune: { gadget: true } });
    } catch (err) {
      invalid = err;
    }
    expect(invalid).toBeInstanceOf(ConfigValidationError);
    expect((invalid as ConfigValidationError).issues).toEqual([
      { path: `gadgets.${known}`, message: 'must be true (got "yes")' },
      { path: "prune", message: '"gadget" is not a known key here (did you mean "gadgets"?)' },
    ]);

    const target = { name: "main", exists: true, isDefault: true };
    expect(resolvePolicy(policy({ gadgets: { [String(known)]: true, "ep-missing": true } }), target)).toMatchObject({ gadgetIds: ["ep-missing", known].sort() });

    const gadgetChanges = async (value: object) => (await plan(policy(value), options)).changes.filter((c) => c.kind === GADGET).map((c) => [c.action, c.before, c.after]);
    expect(await gadgetChanges({ gadgets: { [String(known)]: true, "ep-missing": true } })).toEqual([["create", null, { ids: ["ep-missing"] }]]);
    expect(await gadgetChanges({ prune: { gadgets: true } })).toEqual([["delete", { ids: unnamed }, null]]);
    // `prune: true` sets its flag like the flags of the kinds of src/; what the policy names, or any endpoint without the flag, is left alone.
    expect(await gadgetChanges({ prune: true })).toEqual([["delete", { ids: unnamed }, null]]);
    expect(await gadgetChanges({ gadgets: Object.fromEntries(unnamed.map((id) => [id, true])), prune: { gadgets: true } })).toEqual([]);
    expect(await gadgetChanges({})).toEqual([]);
  });
});
