/**
 * The whole-state codec of the data dir: every record of the world, with its
 * maps and sets, the id counters, pending auth transfers, the presign secret and the manual
 * clock, as one JSON value — and back into a fresh world whose deadlines are then resumed.
 */
import type { ClaimableState } from "../claimable/service.js";
import type { EmulatorClock } from "../engine/clock.js";
import type { ApiKeyRec, DomainRec, OrgRec, ProjectRec, UserRec } from "../store/records.js";
import type { RegionRec, World } from "../store/world.js";

const MAP_TAG = "$svc-emulator-map";
const SET_TAG = "$svc-emulator-set";

/** The persisted state (inside `state.json`'s `state` field). */
export interface PersistedState {
  clock: { mode: string; now: number };
  counters: ReturnType<World["exportCounters"]>;
  presignSecret: string;
  users: UserRec[];
  orgs: OrgRec[];
  keys: ApiKeyRec[];
  projects: ProjectRec[];
  domains: DomainRec[];
  regions: RegionRec[];
  authTransfers: [string, { projectId: string; branchId: string }][];
  /** The emulator instance id, written as the comment of its claimable databases (absent in older files). */
  instanceId?: string;
  /** Claimable database records and tombstoned ids (absent in older files). */
  claimable?: ClaimableState;
}

/** What the data dir keeps besides the world: the instance id and the claimable records. */
export interface PersistedExtras {
  instanceId: string;
  claimable: ClaimableState;
}

/** The world and the extras as plain JSON data (maps and sets tagged). */
export function encodeWorld(world: World, clock: EmulatorClock, extras: PersistedExtras): unknown {
  const state: PersistedState = {
    clock: { mode: clock.mode, now: clock.now() },
    counters: world.exportCounters(),
    presignSecret: world.presignSecret,
    users: [...world.users.values()],
    orgs: [...world.orgs.values()],
    keys: [...world.keysById.values()],
    projects: [...world.projects.values()],
    domains: [...world.domains.values()],
    regions: world.regions,
    authTransfers: [...world.authTransfers],
    instanceId: extras.instanceId,
    claimable: extras.claimable,
  };
  return JSON.parse(JSON.stringify(state, (_key, value: unknown) => {
    if (value instanceof Map) return { [MAP_TAG]: [...value] };
    if (value instanceof Set) return { [SET_TAG]: [...value] };
    return value;
  })) as unknown;
}

function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (typeof value !== "object" || value === null) return value;
  const obj = value as Record<string, unknown>;
  if (Array.isArray(obj[MAP_TAG])) return new Map((obj[MAP_TAG] as unknown[]).map((entry) => revive(entry) as [unknown, unknown]));
  if (Array.isArray(obj[SET_TAG])) return new Set((obj[SET_TAG] as unknown[]).map(revive));
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, revive(v)]));
}

/** Fills an empty world from {@link encodeWorld}'s output; returns the saved clock. */
export function decodeWorld(world: World, encoded: unknown): PersistedState["clock"] {
  const state = revive(encoded) as PersistedState;
  world.importCounters(state.counters);
  world.presignSecret = state.presignSecret;
  world.regions = state.regions;
  for (const u of state.users) world.users.set(u.id, u);
  for (const o of state.orgs) world.orgs.set(o.id, o);
  for (const k of state.keys) {
    world.keysById.set(k.id, k);
    world.keysByHash.set(k.hash, k);
  }
  for (const p of state.projects) {
    // State written before snapshots existed has none.
    p.snapshots ??= new Map();
    world.projects.set(p.id, p);
  }
  for (const d of state.domains) world.domains.set(d.domain, d);
  for (const [id, t] of state.authTransfers) world.authTransfers.set(id, t);
  return state.clock;
}

/** The instance id and claimable records of {@link encodeWorld}'s output; absent fields stay undefined. */
export function decodeExtras(encoded: unknown): Partial<PersistedExtras> {
  const state = encoded as Partial<PersistedState> | undefined;
  return {
    ...(typeof state?.instanceId === "string" ? { instanceId: state.instanceId } : {}),
    ...(state?.claimable !== undefined ? { claimable: state.claimable } : {}),
  };
}

/** SHA-256 names of every blob the state references (archives and object bodies). */
export function referencedBlobs(world: World): Set<string> {
  const out = new Set<string>();
  for (const p of world.projects.values()) {
    for (const b of p.branches.values()) {
      for (const f of b.functions.values()) for (const d of f.deployments) if (d.zipSha256 !== "") out.add(d.zipSha256);
      for (const bucket of b.buckets.values()) for (const o of bucket.objects.values()) if (o.blob !== undefined) out.add(o.blob);
    }
  }
  return out;
}
