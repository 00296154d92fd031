/**
 * The emulator's whole state: accounts, keys, projects (with branches and their children), the
 * global custom-domain registry, id counters and the deadline scheduler. Pure data plus lookups;
 * it knows nothing about HTTP.
 */
import { hash, randomBytes } from "node:crypto";
import { effectiveRole } from "../engine/access.js";
import { MemoryBlobStore, type BlobStore } from "../persist/blob-store.js";
import type { EmulatorClock } from "../engine/clock.js";
import { IdFactory, type RandomSource } from "../engine/random.js";
import { Scheduler } from "../engine/scheduler.js";
import type { ApiKeyRec, BranchRec, DomainRec, FunctionRec, OrgRec, PlanName, Principal, ProjectRec, ProjectRole, UserRec } from "./records.js";

/** Durations of the time-driven transitions, in ms (`--timings`). */
export interface EmulatorTimings {
  opSchedulingMs: number;
  opRunMs: number;
  deployPendingMs: number;
  deployBuildMs: number;
  domainActivationMs: number;
  claimTransferMs: number;
}

/** Default timings. */
export const DEFAULT_TIMINGS: Readonly<EmulatorTimings> = Object.freeze({
  opSchedulingMs: 0,
  opRunMs: 200,
  deployPendingMs: 100,
  deployBuildMs: 300,
  domainActivationMs: 500,
  claimTransferMs: 1000,
});

/** Plan limits. */
export const PLAN_LIMITS: Readonly<Record<PlanName, { projects: number; branchesPerProject: number; historySeconds: number; protectedBranches: boolean }>> = Object.freeze({
  free: { projects: 20, branchesPerProject: 10, historySeconds: 21600, protectedBranches: false },
  launch: { projects: 100, branchesPerProject: 5000, historySeconds: 604800, protectedBranches: true },
  scale: { projects: 1000, branchesPerProject: 5000, historySeconds: 2592000, protectedBranches: true },
});

/** A region and whether it has the platform features (functions, triggers, domains, storage, AI gateway). */
export interface RegionRec {
  id: string;
  name: string;
  features: boolean;
  geoLat: string;
  geoLong: string;
}

/** Regions of the default seed. */
export const DEFAULT_REGIONS: readonly RegionRec[] = Object.freeze([
  { id: "aws-us-east-2", name: "AWS US East 2 (Ohio)", features: true, geoLat: "39.9612", geoLong: "-82.9988" },
  { id: "aws-us-east-1", name: "AWS US East 1 (N. Virginia)", features: true, geoLat: "38.9940", geoLong: "-77.4525" },
  { id: "aws-eu-central-1", name: "AWS Europe Central 1 (Frankfurt)", features: true, geoLat: "50.1109", geoLong: "8.6821" },
  { id: "aws-ap-southeast-1", name: "AWS Asia Pacific 1 (Singapore)", features: true, geoLat: "1.3521", geoLong: "103.8198" },
  { id: "aws-us-west-2", name: "AWS US West 2 (Oregon)", features: false, geoLat: "45.5946", geoLong: "-121.1787" },
]);

/** An object stored in a branch's bucket. */
export interface ObjectCreatedEvent {
  projectId: string;
  branchId: string;
  bucketName: string;
  key: string;
}

/** Hex SHA-256 of a key token (the only form keys are stored in). */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** The last token presented to {@link World.authenticate} and its hash: a client sends the same key on every request. */
let lastPresented: { token: string; hash: string } | undefined;

function hashOfPresented(token: string): string {
  if (lastPresented?.token !== token) lastPresented = { token, hash: hashToken(token) };
  return lastPresented.hash;
}

/** The emulator's state. */
export class World {
  readonly users = new Map<string, UserRec>();
  readonly orgs = new Map<string, OrgRec>();
  readonly keysByHash = new Map<string, ApiKeyRec>();
  readonly keysById = new Map<number, ApiKeyRec>();
  readonly projects = new Map<string, ProjectRec>();
  /** Normalised domain -> registration, across all accounts. */
  readonly domains = new Map<string, DomainRec>();
  regions: RegionRec[] = [...DEFAULT_REGIONS];
  /** Pending auth ownership transfers (legacy `transfer_ownership`): id -> project and branch. */
  readonly authTransfers = new Map<string, { projectId: string; branchId: string }>();
  /** Object bodies and archives, by SHA-256 (memory, or the data dir's `blobs/`). */
  blobs: BlobStore = new MemoryBlobStore();
  /** HMAC key of presigned URLs (hex; persisted with the data dir). */
  presignSecret: string = randomBytes(32).toString("hex");
  readonly scheduler = new Scheduler();
  /** Called after a project was purged (its records dropped), e.g. to drop its real databases. */
  onProjectPurged: (project: ProjectRec) => void = () => undefined;
  /**
   * The invocation URL of a function. Records alone give the platform's form under
   * `.emulator.invalid`; a running emulator answers with its front door's URL (a port per function).
   */
  invocationUrl: (project: ProjectRec, branch: BranchRec, fn: FunctionRec) => string = (project, branch, fn) => `https://${branch.id}-${fn.slug}.fn.${this.proxyHost(project.regionId)}/`;
  /** Called after an object was created or replaced (an upload through a presigned URL or the S3 endpoint), e.g. to fire storage triggers. */
  onObjectCreated: (event: ObjectCreatedEvent) => void = () => undefined;
  readonly ids: IdFactory;
  private nextKeyId = 1;
  private nextDatabaseId = 1;
  private nextOperationSeq = 1;
  private usedIds = new Set<string>();

  /** The id counters and taken ids (persistence). */
  exportCounters(): { nextKeyId: number; nextDatabaseId: number; nextOperationSeq: number; usedIds: string[] } {
    return { nextKeyId: this.nextKeyId, nextDatabaseId: this.nextDatabaseId, nextOperationSeq: this.nextOperationSeq, usedIds: [...this.usedIds] };
  }

  /** Restores what {@link exportCounters} returned. */
  importCounters(counters: { nextKeyId: number; nextDatabaseId: number; nextOperationSeq: number; usedIds: string[] }): void {
    this.nextKeyId = counters.nextKeyId;
    this.nextDatabaseId = counters.nextDatabaseId;
    this.nextOperationSeq = counters.nextOperationSeq;
    this.usedIds = new Set(counters.usedIds);
  }

  constructor(
    readonly clock: EmulatorClock,
    readonly timings: EmulatorTimings,
    random: RandomSource,
  ) {
    this.ids = new IdFactory(random);
  }

  /** Current time, epoch ms; runs due transitions first so reads see them. */
  now(): number {
    const t = this.clock.now();
    this.scheduler.materialize(t);
    return t;
  }

  /** A fresh word id with an optional prefix (`br-`, `ep-`), never reused. */
  newWordId(prefix = ""): string {
    for (;;) {
      const id = prefix + this.ids.wordId();
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  /** Marks an externally chosen id as taken. */
  reserveId(id: string): void {
    this.usedIds.add(id);
  }

  /** The next API key id. */
  newKeyId(): number {
    return this.nextKeyId++;
  }

  /** The next operation sequence number. */
  newOperationSeq(): number {
    return this.nextOperationSeq++;
  }

  /** The next database id. */
  newDatabaseId(): number {
    return this.nextDatabaseId++;
  }

  /** Stores a key by the hash of `token`; returns the record. */
  addKey(token: string, init: Omit<ApiKeyRec, "id" | "hash" | "revoked">): ApiKeyRec {
    return this.addKeyHash(hashToken(token), init);
  }

  /** Stores a key whose token is known only by its hex SHA-256 (a restored state document). */
  addKeyHash(hash: string, init: Omit<ApiKeyRec, "id" | "hash" | "revoked">, revoked = false): ApiKeyRec {
    const rec: ApiKeyRec = { ...init, id: this.newKeyId(), hash, revoked };
    this.keysByHash.set(rec.hash, rec);
    this.keysById.set(rec.id, rec);
    return rec;
  }

  /** The principal of a bearer token, or null when unknown or revoked (O(1)). */
  authenticate(token: string): Principal | null {
    const key = this.keysByHash.get(hashOfPresented(token));
    if (key === undefined || key.revoked) return null;
    if (key.kind === "org") return { key, userId: key.createdBy, orgId: key.accountId };
    return { key, userId: key.accountId };
  }

  /** Whether the principal can see the (not deleted) project; organization keys limited to another project -> "forbidden". */
  access(principal: Principal, project: ProjectRec): "visible" | "hidden" | "forbidden" {
    if (project.deletedAt !== undefined) return "hidden";
    if (principal.orgId !== undefined) {
      if (project.orgId !== principal.orgId) return "hidden";
      if (principal.key.projectId !== undefined && principal.key.projectId !== project.id) return "forbidden";
      return "visible";
    }
    return this.roleOf(principal, project) === null ? "hidden" : "visible";
  }

  /** The caller's project role, ignoring deletion; null = no access. */
  roleOf(principal: Principal, project: ProjectRec): ProjectRole | null {
    return effectiveRole(principal, project, this.orgs, this.users);
  }

  /** The plan that governs a project (its organization's or its owner's). */
  planOf(project: ProjectRec): PlanName {
    if (project.orgId !== undefined) return this.orgs.get(project.orgId)?.plan ?? "free";
    return this.users.get(project.ownerId)?.plan ?? "free";
  }

  /** The region record of a project (features off for unknown regions). */
  regionOf(project: ProjectRec): RegionRec {
    return this.regions.find((r) => r.id === project.regionId) ?? { id: project.regionId, name: project.regionId, features: false, geoLat: "0", geoLong: "0" };
  }

  /** The account a project belongs to (organization id or user id). */
  accountOf(project: ProjectRec): string {
    return project.orgId ?? project.ownerId;
  }

  /** The project's default branch. */
  defaultBranch(project: ProjectRec): BranchRec | undefined {
    for (const b of project.branches.values()) if (b.isDefault) return b;
    return undefined;
  }

  /** `proxy_host` of a region: `us-east-2.aws.emulator.invalid`. */
  proxyHost(regionId: string): string {
    const m = /^([a-z0-9]+)-(.+)$/.exec(regionId);
    return m ? `${m[2]}.${m[1]}.emulator.invalid` : `${regionId}.emulator.invalid`;
  }
}
