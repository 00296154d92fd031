/**
 * The front door of deployed functions: every function of a live branch listens on a port of its
 * own on the emulator's address (`http://127.0.0.1:<port>/`, its `invocation_url`), and a custom
 * domain reaches its function through the emulator's main port by `Host`. A request is proxied,
 * streaming both ways, to the child running the function's active deployment (started on
 * demand); the handler sees the path and `Host` the caller used. Fault rules whose path starts
 * with `/__functions/` apply here; every request is one record of the invocation log.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Agent, createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { normalizeHostname } from "../../rules/hostname.js";
import { isoTime } from "../engine/clock.js";
import { INVOCATION_FAULT_PREFIX, sleep, type FaultEngine, type FaultHit } from "../faults.js";
import type { DeploymentRec, FunctionRec } from "../store/records.js";
import type { World } from "../store/world.js";
import type { InvocationLog, InvocationRecord, InvocationTrigger } from "./invocation-log.js";
import { functionKeyOf, type FunctionRunner, type Lease, type VersionSpec } from "./runner.js";

/** The internal header that carries a trigger delivery's context to the front door (stripped before the function). */
const DELIVERY_HEADER = "x-svc-emulator-delivery";

/** Headers that belong to one hop of the connection, never forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);

/** What the front door needs from the emulator. */
export interface FrontDoorOptions {
  /** The address function ports listen on (an IP literal). */
  host: string;
  /** The host of the URLs handed out (`127.0.0.1` for a wildcard bind). */
  urlHost: string;
  world: () => World;
  runner: FunctionRunner;
  log: InvocationLog;
  faults: FaultEngine;
  /** A function with no response after this long gets a 504 (the invocation is a `timeout`). */
  timeoutMs: number;
}

/** A function's listener. */
interface Listener {
  server: Server;
  url: string;
}

/** The function and its active deployment (the newest completed one), if any. */
function locate(world: World, key: string): { fn: FunctionRec; spec?: VersionSpec; deployment?: DeploymentRec } | undefined {
  const [projectId = "", branchId = "", slug = ""] = key.split("/");
  const project = world.projects.get(projectId);
  const fn = project?.deletedAt === undefined ? project?.branches.get(branchId)?.functions.get(slug) : undefined;
  if (fn === undefined) return undefined;
  const deployment = fn.deployments.findLast((d) => d.status === "completed");
  if (deployment === undefined) return { fn };
  return { fn, deployment, spec: { projectId, branchId, slug, deploymentId: deployment.id, zipSha256: deployment.zipSha256 } };
}

/** A short plain-text answer of the front door itself. */
function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function forwardedHeaders(headers: IncomingMessage["headers"]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  return out;
}

/** The emulator's front door for deployed functions. */
export class FrontDoor {
  private readonly listeners = new Map<string, Promise<Listener>>();
  /** Base URLs of the open listeners (read synchronously by the views). */
  private readonly opened = new Map<string, string>();
  private readonly deliveries = new Map<string, InvocationTrigger>();
  private readonly deliverySecret = randomBytes(16).toString("hex");
  private readonly agent = new Agent({ keepAlive: true });
  /** Counts every change of `listeners` (opened, shut, failed). */
  private listenerChanges = 0;
  /** The collection of the last `sync` that completed, and `listenerChanges` once its own changes were made. */
  private synced: { live: ReadonlySet<string> | ReadonlyMap<string, unknown>; changes: number } | undefined;

  constructor(private readonly options: FrontDoorOptions) {}

  /**
   * Opens a listener for every function in `live` (their keys) and closes the others. The same
   * collection object again, with no listener opened, shut or failed since the last sync
   * completed, needs neither walk: the caller gives a new object whenever the keys change.
   */
  async sync(live: ReadonlySet<string> | ReadonlyMap<string, unknown>): Promise<void> {
    if (this.synced !== undefined && this.synced.live === live && this.synced.changes === this.listenerChanges) return;
    const work: Promise<unknown>[] = [];
    for (const key of live.keys()) if (!this.listeners.has(key)) work.push(this.open(key));
    for (const [key, listener] of this.listeners) if (!live.has(key)) work.push(this.shut(key, listener));
    const changes = this.listenerChanges;
    this.synced = undefined;
    await Promise.all(work);
    this.synced = { live, changes };
  }

  /** The function's base URL once its listener is open. */
  urlOf(key: string): string | undefined {
    return this.opened.get(key);
  }

  /** The function's base URL, opening its listener first when needed. */
  async ensureUrl(key: string): Promise<string> {
    return (await (this.listeners.get(key) ?? this.open(key))).url;
  }

  /** The header that tells the front door a request is this trigger delivery; `forgetDelivery` once answered. */
  deliveryHeader(trigger: InvocationTrigger): { name: string; value: string; id: string } {
    const id = randomUUID();
    this.deliveries.set(id, trigger);
    return { name: DELIVERY_HEADER, value: `${this.deliverySecret}.${id}`, id };
  }

  /** Drops a delivery's context. */
  forgetDelivery(id: string): void {
    this.deliveries.delete(id);
  }

  /**
   * Serves a request that reached the emulator's main port when its `Host` is an active custom
   * domain of a function; returns false (the request is not touched) otherwise.
   */
  claim(req: IncomingMessage, res: ServerResponse): boolean {
    const raw = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (raw === "" || raw.startsWith("[") || /^[\d.]+$/.test(raw)) return false;
    const world = this.options.world();
    const domain = world.domains.get(normalizeHostname(raw));
    if (domain === undefined || world.clock.now() < domain.activeAt) return false;
    void this.serve(functionKeyOf({ projectId: domain.projectId, branchId: domain.branchId, slug: domain.entityId }), req, res);
    return true;
  }

  /** Closes every listener. */
  async close(): Promise<void> {
    await Promise.all([...this.listeners].map(([key, listener]) => this.shut(key, listener)));
    this.agent.destroy();
  }

  private open(key: string): Promise<Listener> {
    const opening = new Promise<Listener>((resolve, reject) => {
      const server = createServer((req, res) => void this.serve(key, req, res));
      // A function may stream a request body for as long as its handler reads it.
      server.requestTimeout = 0;
      server.on("upgrade", (_req, socket) => {
        const body = "WebSocket upgrades are not served by the emulator; run the function with svc dev.\n";
        socket.end(`HTTP/1.1 501 Not Implemented\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      });
      server.once("error", reject);
      // Like the emulator's own server, a function port never keeps a process alive on its own.
      server.unref();
      server.listen(0, this.options.host, () => {
        const port = (server.address() as AddressInfo).port;
        const url = `http://${this.options.urlHost}:${port}/`;
        this.opened.set(key, url);
        resolve({ server, url });
      });
    });
    this.listeners.set(key, opening);
    this.listenerChanges += 1;
    opening.catch(() => {
      this.listeners.delete(key);
      this.listenerChanges += 1;
    });
    return opening;
  }

  private async shut(key: string, listener: Promise<Listener>): Promise<void> {
    this.listeners.delete(key);
    this.listenerChanges += 1;
    this.opened.delete(key);
    const { server } = await listener.catch(() => ({ server: undefined }));
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** The trigger context of a delivery (its internal header removed), or undefined for a caller's request. */
  private takeDelivery(req: IncomingMessage): InvocationTrigger | undefined {
    const value = req.headers[DELIVERY_HEADER];
    if (value === undefined) return undefined;
    delete req.headers[DELIVERY_HEADER];
    const [secret, id = ""] = String(value).split(".");
    return secret === this.deliverySecret ? this.deliveries.get(id) : undefined;
  }

  private async serve(key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const world = this.options.world();
    const trigger = this.takeDelivery(req);
    const [projectId = "", branchId = "", slug = ""] = key.split("/");
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const record: InvocationRecord = {
      id: `inv_${randomBytes(8).toString("hex")}`,
      time: isoTime(world.now()),
      project_id: projectId,
      branch_id: branchId,
      function_slug: slug,
      source: trigger !== undefined ? "trigger" : "http",
      ...(trigger !== undefined ? { trigger } : {}),
      method,
      path,
      status: 0,
      duration_ms: 0,
    };
    const finish = (status: InvocationRecord["status"], extra: Partial<InvocationRecord> = {}): void => {
      this.options.log.add({ ...record, ...extra, status, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
    };
    const target = locate(world, key);
    if (target === undefined) {
      answer(res, 404, `Not Found: function ${slug} no longer exists on branch ${branchId}\n`);
      return finish(404, { error: "the function does not exist (deleted, or its branch or project is gone)" });
    }
    // The time to the first byte counts from arrival: injected delays and a cold start use it up too.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    const expired = new Promise<"expired">((resolve) => deadline.signal.addEventListener("abort", () => resolve("expired"), { once: true }));
    const timeout = { error: `the function did not answer within ${this.options.timeoutMs} ms` };
    try {
      const hits = this.options.faults.evaluate(method, `${INVOCATION_FAULT_PREFIX}${branchId}/${slug}${path.split("?")[0] ?? ""}`, record.id);
      const fault = hits.length > 0 ? { fault: hits.map((h) => String(h.rule)).join(",") } : {};
      for (const hit of hits) {
        if (hit.kind === "delay" && hit.phase === "before" && (await Promise.race([sleep(hit.delayMs ?? 0), expired])) === "expired") {
          answer(res, 504, "Gateway Timeout\n");
          return finish("timeout", { ...fault, ...timeout });
        }
      }
      const before = hits.find((h) => h.phase === "before" && h.kind !== "delay");
      if (before !== undefined) {
        if (before.kind === "reset") {
          req.socket.destroy();
          return finish("reset", { ...fault, error: "injected fault: connection reset" });
        }
        answer(res, before.status ?? 503, `injected ${before.status ?? 503} fault\n`, { "x-emulator-fault": String(before.rule), ...(before.retryAfterS !== undefined ? { "retry-after": String(before.retryAfterS) } : {}) });
        return finish(before.status ?? 503, { ...fault, error: `injected ${before.status ?? 503} fault` });
      }
      if (target.spec === undefined) {
        answer(res, 503, `Service Unavailable: function ${slug} has no completed deployment yet\n`, { "retry-after": "1" });
        return finish(503, { ...fault, error: "no completed deployment" });
      }
      const deployment = { deployment_id: target.spec.deploymentId };
      const leasing = this.options.runner.acquire(target.spec);
      let lease: Lease | "expired";
      try {
        lease = await Promise.race([leasing, expired]);
      } catch (err) {
        answer(res, 502, "Bad Gateway\n");
        return finish(502, { ...fault, ...deployment, error: `the function could not start: ${err instanceof Error ? err.message : String(err)}` });
      }
      if (lease === "expired") {
        void leasing.then((late) => late.done(), () => undefined);
        answer(res, 504, "Gateway Timeout\n");
        return finish("timeout", { ...fault, ...deployment, ...timeout });
      }
      const outcome = await this.proxy(lease, req, res, hits.find((h) => h.phase === "after"), { signal: deadline.signal, onHeaders: () => clearTimeout(timer), timeout });
      const host = outcome.fromFunction ? await lease.record(method, path) : undefined;
      lease.done();
      // The host's own first-byte timer can fire before this one when this process is slow: still a timeout.
      if (host?.timedOut === true) return finish("timeout", { ...fault, ...deployment, ...timeout });
      finish(outcome.status, { ...fault, ...deployment, ...(outcome.error !== undefined ? { error: outcome.error } : host?.error !== undefined ? { error: host.error } : {}) });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Forwards the request to the function's child and its response back; resolves once the exchange is over. */
  private proxy(lease: Lease, req: IncomingMessage, res: ServerResponse, after: FaultHit | undefined, deadline: { signal: AbortSignal; onHeaders: () => void; timeout: { error: string } }): Promise<{ status: InvocationRecord["status"]; fromFunction: boolean; error?: string }> {
    return new Promise((resolve) => {
      const target = new URL(lease.url);
      let settled = false;
      const onExpired = (): void => {
        upstream.destroy();
        answer(res, 504, "Gateway Timeout\n");
        settle({ status: "timeout", fromFunction: false, ...deadline.timeout });
      };
      const settle = (outcome: { status: InvocationRecord["status"]; fromFunction: boolean; error?: string }): void => {
        if (settled) return;
        settled = true;
        deadline.signal.removeEventListener("abort", onExpired);
        resolve(outcome);
      };
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardedHeaders(req.headers), agent: this.agent });
      deadline.signal.addEventListener("abort", onExpired, { once: true });
      upstream.on("response", (reply) => {
        deadline.signal.removeEventListener("abort", onExpired);
        deadline.onHeaders();
        void (async () => {
          if (after?.kind === "delay") await sleep(after.delayMs ?? 0);
          else if (after !== undefined) {
            reply.resume();
            if (after.kind === "reset") {
              res.destroy();
              return settle({ status: "reset", fromFunction: false, error: "injected fault: connection reset after the function answered" });
            }
            answer(res, after.status ?? 500, `injected ${after.status ?? 500} fault\n`, { "x-emulator-fault": String(after.rule) });
            return settle({ status: after.status ?? 500, fromFunction: false, error: `injected ${after.status ?? 500} fault after the function answered` });
          }
          const headers: OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(reply.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
          res.writeHead(reply.statusCode ?? 502, headers);
          res.flushHeaders();
          reply.pipe(res);
          res.once("close", () => settle(res.writableFinished ? { status: reply.statusCode ?? 502, fromFunction: true } : { status: "reset", fromFunction: true, error: "the connection closed before the response ended" }));
        })();
      });
      upstream.on("error", (err) => {
        if (res.destroyed) return settle({ status: "reset", fromFunction: false, error: "the caller went away before the response" });
        answer(res, 502, "Bad Gateway\n");
        settle({ status: 502, fromFunction: false, error: `the function's process did not answer: ${err.message}` });
      });
      res.once("close", () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    });
  }
}
