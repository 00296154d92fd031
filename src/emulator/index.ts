/**
 * `svc-config/emulator`: a local, wire-compatible emulator of the platform's management API
 * (emulator.md). `startEmulator()` resolves once the server listens.
 */
import { serve, type ServerType } from "@hono/node-server";
import { existsSync } from "node:fs";
import { createServer, type RequestListener, type Server, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createInstantFeature } from "./claimable/index.js";
import { adoptIntoWorld, checkStorageRoute, worldAccounts } from "./claimable/management-bridge.js";
import { EmulatorCore, type EmulatorControl } from "./control.js";
import type { EmulatorClock } from "./engine/clock.js";
import { resolveEmulatorOptions, type EmulatorOptions } from "./options.js";
import { mountAdminRoutes } from "./routes/admin.js";
import { createEmulatorApp } from "./server.js";
import { isRoutineServerLine } from "./postgres/supervisor.js";
import { useRealDatabases } from "./real-databases.js";
import { FunctionsFeature } from "./functions/feature.js";
import { functionAdminRoutes } from "./functions/routes.js";
import type { BranchRec, ProjectRec } from "./store/records.js";

export type { EmulatorOptions } from "./options.js";
export type { EmulatorControl, FaultControl } from "./control.js";
export type { EmulatorClock, TimeSource } from "./engine/clock.js";
export type { FaultRule, InjectedFault } from "./faults.js";
export type { RequestLogEntry, RequestLogSink } from "./request-log.js";
export type { SeedDocument } from "./seed.js";
export type { StateDocument } from "./state-document.js";
export type { EmulatorTimings } from "./store/world.js";
export type { EmulatorLimits } from "./runtime.js";
export { parseFaultPlan } from "./faults.js";
export { SEED_ENDPOINT_INDEX, M2_ROUTES } from "./route-index.js";

/** A running emulator. */
export interface RunningEmulator {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  /** `url + "/api/v2"`: the management API base. */
  readonly apiHost: string;
  /** The claimable database API origin (`url`). */
  readonly claimApiHost: string;
  /** The bootstrap key (admin). */
  readonly apiKey: string;
  /** The seeded project. */
  readonly projectId: string;
  /** The seeded project's default branch (`br-…`). */
  readonly defaultBranchId: string;
  /** The listening port. */
  readonly port: number;
  /** In-process control: snapshot, reset, clock, faults, requests, settle, lockProject. */
  readonly state: EmulatorControl;
  /** Shortcut for `state.clock`. */
  readonly clock: EmulatorClock;
  /** Claimable-database controls. */
  readonly instant: { checkStorage(): Promise<void> };
  /** Shortcut for `state.settle()`. */
  settle(options?: { timeoutMs?: number }): Promise<void>;
  /** Stops listening and finishes in-flight requests (up to 5 s); idempotent. */
  close(): Promise<void>;
}

/** Node's `createServer`, with requests to a function's custom domain (by `Host`) served by the functions' front door before the app sees them. */
function servingCustomDomains(functions: FunctionsFeature): typeof createServer {
  const create = (options: ServerOptions, listener: RequestListener): Server =>
    createServer(options, (req, res) => {
      if (!functions.claim(req, res)) listener(req, res);
    });
  return create as typeof createServer;
}

/** Starts the emulator; resolves once it listens. Invalid options reject with an error naming the option. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveEmulatorOptions(options);
  const core = new EmulatorCore(resolved);
  const functions = new FunctionsFeature({
    world: () => core.world,
    faults: core.faultEngine,
    limits: resolved.limits,
    settings: resolved.functions,
    ...(resolved.dataDir !== undefined ? { dataDir: resolved.dataDir } : {}),
    notice: (line) => core.notice(line),
    track: (work) => core.track(work),
  });
  core.configureWorlds((world) => {
    world.invocationUrl = (project, branch, fn) => functions.invocationUrl(project, branch, fn);
    world.onObjectCreated = (event) => functions.objectCreated(event);
  });
  core.onReset(() => functions.sync());
  const app = createEmulatorApp({
    rt: core,
    faults: core.faultEngine,
    log: core.log,
    mountAdmin: (a) => mountAdminRoutes(a, core, functionAdminRoutes(() => core.world, functions)),
    commit: () => core.commit(),
    durable: () => core.durable(),
    afterMutation: () => functions.sync(),
  });
  let origin = "";
  const pgLog = (line: string): void => (isRoutineServerLine(line) ? core.log.detail(line) : core.log.notice(line));
  const instant = createInstantFeature({
    postgres: resolved.postgres,
    ...(resolved.dataDir !== undefined ? { dataDir: resolved.dataDir } : {}),
    pgPort: resolved.pgPort,
    poolerPort: resolved.poolerPort,
    clock: core.clock,
    instanceId: core.instanceId,
    origin: () => origin,
    log: pgLog,
    accounts: worldAccounts(() => core.world),
    adopt: adoptIntoWorld(() => core.world),
    storageLimitBytes: resolved.limits.claimableStorageBytes,
    claimTransferMs: resolved.timings.claimTransferMs,
    newProjectId: () => core.world.newWordId(),
    faults: core.faultEngine,
    persist: () => core.commit(),
    durable: () => core.durable(),
  });
  core.attachClaimable(() => instant.service.exportState());
  const checkStorage = async (): Promise<void> => {
    await instant.checkStorage();
    await core.commit();
  };
  app.route("/", instant.routes);
  app.route("/", checkStorageRoute(() => core.world, { checkStorage }));
  const realDatabases = resolved.realDatabases ? useRealDatabases(app, () => core.world, instant.backend, { log: pgLog, ...(resolved.dataDir !== undefined ? { dataDir: resolved.dataDir } : {}) }) : null;
  if (realDatabases !== null) {
    core.schemaSource = realDatabases.readSchema;
    core.endpointHosts = realDatabases.endpointHosts;
  }
  // Real databases exist only once the server ran: in this process, or in an earlier one on the data dir.
  const mayHoldDatabases = (): boolean => instant.backend.info() !== null || resolved.dataDir !== undefined;
  if (realDatabases !== null) {
    core.onProjectPurged((project) => (mayHoldDatabases() ? realDatabases.dropProjects([project]) : Promise.resolve()));
  }
  core.onReset(async (previous) => {
    if (realDatabases !== null && mayHoldDatabases()) await realDatabases.dropProjects(previous.projects.values());
    if (instant.service.list().length > 0) await instant.service.dropAll();
  });
  // An embedded cluster of a previous run may hold databases without a record (a kill -9 between
  // a create and its write): the server then starts now and reconciles too.
  const clusterExists = resolved.dataDir !== undefined && resolved.postgres === "embedded" && existsSync(join(resolved.dataDir, "pg", "cluster"));
  if (core.savedClaimable !== undefined || clusterExists) {
    // Records of a previous run: the server starts now and reconciles them.
    await instant.restore(core.savedClaimable ?? { records: [], tombstones: [] }, { reconcile: clusterExists }).catch((err: unknown) => core.log.notice(`error: the claimable databases of the data dir could not be reconciled: ${err instanceof Error ? err.message : String(err)}`));
    await core.commit();
  }
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: resolved.port, hostname: resolved.host, createServer: servingCustomDomains(functions) }, () => resolve(s));
      s.once("error", reject);
    });
  } catch (err) {
    await instant.close();
    await core.closeDataDir();
    throw err;
  }
  // The emulator never keeps a process alive on its own: a script that
  // forgets close() still exits; `svc emulator` holds the process open itself.
  server.unref();
  const timer = setInterval(() => core.world.now(), 50);
  timer.unref();
  const address = server.address() as AddressInfo;
  const host = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;
  const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${address.port}`;
  origin = url;
  const urlHost = url.slice("http://".length, url.lastIndexOf(":"));
  await functions.start({
    origin: url,
    bindAddress: address.address,
    urlHost,
    ...(realDatabases !== null ? { realDatabaseUri: (_project: ProjectRec, branch: BranchRec, role: string, database: string, pooled: boolean) => realDatabases.connectionUri(branch, role, database, pooled) } : {}),
  });
  core.saveBootstrap(
    `${[`SVC_API_HOST=${url}/api/v2`, `SVC_API_KEY=${core.identity.apiKey}`, `SVC_PROJECT_ID=${core.identity.projectId}`, `SVC_BRANCH_ID=${core.identity.defaultBranchId}`, `SVC_CLAIM_API_HOST=${url}`].join("\n")}\n`,
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    apiHost: `${url}/api/v2`,
    claimApiHost: url,
    apiKey: core.identity.apiKey,
    projectId: core.identity.projectId,
    defaultBranchId: core.identity.defaultBranchId,
    port: address.port,
    state: core,
    clock: core.clock,
    instant: { checkStorage },
    settle: (o) => core.settle(o),
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        const force = setTimeout(() => {
          if ("closeAllConnections" in server) server.closeAllConnections();
        }, 5000);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      })
        // Functions stop first: they may hold connections to the databases dropped next.
        .then(() => functions.close())
        // With a data dir, the databases belong to the persisted records and outlive the process.
        .then(() => realDatabases?.close())
        .then(() => (resolved.dataDir === undefined ? realDatabases?.dropAll() : undefined))
        .then(() => instant.close({ dropDatabases: resolved.dataDir === undefined }))
        .then(() => core.closeDataDir());
      return closing;
    },
  };
}
