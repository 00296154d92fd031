import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatformApi } from "../../../src/api/create-platform-api.js";
import { loadConfigFromFile } from "../../../src/config/load-config.js";
import { startEmulator, type RunningEmulator, type SeedDocument } from "../../../src/emulator/index.js";
import { REPLICA_OWNER } from "../../../src/api/wire/replica-seed.js";
import { createReplica } from "../../../src/emulator/replica.js";
import { replicaSeed } from "../../../src/engine/replica-seed.js";
import { readLiveState } from "../../../src/inspect/read-live-state.js";
import type { LiveState } from "../../../src/model/live-state.js";
import { apply } from "../../../src/v1.js";
import { allFeatureReads } from "../../helpers/read-needs.js";
import { KIND_READS } from "../../../src/kinds/modules.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const INSTANT = { opSchedulingMs: 0, opRunMs: 0, deployPendingMs: 0, deployBuildMs: 0, domainActivationMs: 0 };

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** A live state without the functions' invocation URLs: where a function answers is the host's address (a socket, or none on a replica), not seeded. */
function withoutUrls(state: LiveState): LiveState {
  return { ...state, ...(state.functions === undefined ? {} : { functions: state.functions.map(({ invocationUrl: _url, ...f }) => ({ ...f, invocationUrl: "" })) }) };
}

/**
 * What a replica of a preview branch shows beside the live state: the stand-in parent owns the
 * databases the branch inherits (a plan reads no owners there) with one role of its own, which the
 * branch inherits as every branch inherits its parent's roles.
 */
function withStandInOwner(state: LiveState): LiveState {
  if (state.branch.isDefault) return state;
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return {
    ...state,
    parentRoles: [...(state.parentRoles ?? []), REPLICA_OWNER].sort(),
    roles: [...(state.roles ?? []), { name: REPLICA_OWNER, login: true, protected: false }].sort(byName),
  };
}

// Each kind's module seeds its records; a replica seeded from what a plan read answers the same reads the same way
// (roles-databases-prune reads a preview branch: what it inherits sits on the replica's stand-in parent).
describe.each(["prune", "roles-databases-prune", "domain-retarget", "converged-branch", "env-only-change", "trigger-type-change", "read-replicas"])("a replica of the branch of scenario %s", (scenario) => {
  it("reads back as the live state it was seeded from", async () => {
    const dir = join(FIXTURES, scenario);
    const seed = JSON.parse(readFileSync(join(dir, "live.json"), "utf8")) as SeedDocument;
    const spec = JSON.parse(readFileSync(join(dir, "scenario.json"), "utf8")) as { branchId?: string; setup?: string };
    emulator = await startEmulator({ seed, timings: INSTANT, log: "off" });
    const branchId = spec.branchId ?? emulator.defaultBranchId;
    if (spec.setup !== undefined) {
      const setup = await loadConfigFromFile({ path: join(dir, spec.setup) });
      await apply(setup.config, { projectId: emulator.projectId, branchId, apiKey: emulator.apiKey, apiHost: emulator.apiHost, updateExisting: true, polling: { initialMs: 5, maxMs: 20 } });
    }
    const read = (api: ReturnType<typeof createPlatformApi>) => readLiveState({ api, projectId: emulator?.projectId ?? "", branchId, needs: allFeatureReads(), kinds: KIND_READS });
    const live = await read(createPlatformApi({ apiKey: emulator.apiKey, apiHost: emulator.apiHost }));

    const apiKey = "svc_replica_test";
    const replica = createReplica({ seed: replicaSeed(live.state, apiKey), apiKey, timings: INSTANT });
    const again = await read(createPlatformApi({ apiKey, apiHost: replica.apiHost, fetch: replica.fetch }));

    expect(again.unavailable).toEqual(live.unavailable);
    expect(withoutUrls(again.state)).toEqual(withStandInOwner(withoutUrls(live.state)));
  });
});
