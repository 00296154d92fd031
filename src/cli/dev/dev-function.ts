/**
 * One function under `svc dev`: builds it on the deployment's path, serves it in its own child
 * process on its port, rebuilds and replaces the child when its sources change (a failed build
 * or a version that cannot start leaves the previous version serving), and restarts a child that
 * exits on its own (a crash loop waits for the next change instead).
 */
import { dirname, sep } from "node:path";
import { locateFunction } from "../../bundle/entry.js";
import type { ResolvedFunction } from "../../model/desired-state.js";
import { FunctionHostError, startFunctionProcess, type FunctionProcess, type RequestRecord, type SpareHosts } from "../../runtime/index.js";
import type { DevOutput, WrittenBuild } from "./dev-output.js";
import { DEV_HOST } from "./dev-ports.js";

/** How long a replaced version may finish its requests in flight. */
const RELOAD_GRACE_MS = 500;
/** A child that exits this soon after starting counts towards a crash loop. */
const CRASH_WINDOW_MS = 2000;
/** After this many quick exits in a row, wait for a change instead of restarting. */
const CRASH_LOOP = 3;

/** Where a function's events go (the session prints them). */
export interface DevLog {
  /** A line about the function (started, reloaded, restarted). */
  info(slug: string, text: string): void;
  /** A failure (build, start); `text` may span lines. */
  error(slug: string, text: string): void;
  request(slug: string, record: RequestRecord): void;
  output(slug: string, line: string, stream: "stdout" | "stderr"): void;
}

/** Options of {@link DevFunction}. */
export interface DevFunctionOptions {
  definition: ResolvedFunction;
  port: number;
  output: DevOutput;
  /** esbuild's working directory (the policy's directory), as a deployment uses. */
  workingDir: string | undefined;
  /** The child's whole environment, computed at each start. */
  env: (slug: string) => Record<string, string>;
  log: DevLog;
  /** A booted host to take instead of starting Node.js (shared by the session). */
  spares?: SpareHosts;
  /**
   * For a port `svc dev` chose (no `dev.port`, no `--port`): another free port, when something
   * took this one between the choice and the first start. Never used once the function served.
   */
  repickPort?: () => Promise<number>;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A served function and its current build. */
export class DevFunction {
  definition: ResolvedFunction;
  /** Chosen before the first start; changes only if another process took it before the function ever served. */
  port: number;
  readonly #options: DevFunctionOptions;
  #build: WrittenBuild | undefined;
  #process: FunctionProcess | undefined;
  #startedAt = 0;
  #quickExits = 0;
  #lastBuildFailed = false;
  /** The source's directory (the parent of a file source), known once the entry was looked for. */
  #sourceDir: string;
  #queue: Promise<void> = Promise.resolve();
  #queued = false;
  #stopped = false;
  #everServed = false;
  /** The environment the serving child was started with. */
  #childEnv: Readonly<Record<string, string>> = {};

  constructor(options: DevFunctionOptions) {
    this.definition = options.definition;
    this.port = options.port;
    this.#options = options;
    this.#sourceDir = dirname(options.definition.sourcePath);
  }

  get slug(): string {
    return this.definition.slug;
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://${DEV_HOST}:${this.port}`;
  }

  /** The serving child's pid, or undefined when none serves. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** Whether a version serves. */
  get serving(): boolean {
    return this.#process !== undefined;
  }

  /** The source files of the last good build (for the watcher). */
  get inputs(): readonly string[] {
    return this.#build?.inputs ?? [];
  }

  /**
   * Directories to watch beyond the inputs' own: while the inputs are unknown (a custom bundler)
   * or the last build failed (a file it needs may not exist yet), the source's directory and those
   * of the last inputs, where any change triggers a rebuild.
   */
  get watchDirectories(): string[] {
    if (this.#build !== undefined && this.#build.inputs.length > 0 && !this.#lastBuildFailed) return [];
    return [...new Set([this.#sourceDir, ...this.inputs.map((input) => dirname(input))])];
  }

  /** Whether a change of `paths` concerns this function. */
  affectedBy(paths: ReadonlySet<string>): boolean {
    const inputs = new Set(this.inputs);
    const dirs = this.watchDirectories;
    return [...paths].some((path) => inputs.has(path) || dirs.some((dir) => path === dir || dirname(path) === dir || path.startsWith(`${dir}${sep}`)));
  }

  /** Builds and starts the function; resolves when it serves or its failure was reported. */
  start(): Promise<void> {
    return this.#enqueue(() => this.#rebuild("started"));
  }

  /**
   * Rebuilds and replaces the child (with a new definition after an edit of `svc.ts`). Calls
   * during a rebuild coalesce into one more rebuild after it.
   */
  reload(definition?: ResolvedFunction): Promise<void> {
    if (definition !== undefined) this.definition = definition;
    if (this.#queued) return this.#queue;
    this.#queued = true;
    return this.#enqueue(async () => {
      this.#queued = false;
      await this.#rebuild("reloaded");
    });
  }

  /**
   * Restarts the serving child on its current build (no rebuild) when the environment it would get
   * now differs from the one it runs with: a function added, removed or moved changes every other
   * function's `SVC_FUNCTION_<SLUG>_URL` set. Logs the names of the variables that changed, never
   * their values.
   */
  refreshEnvironment(): Promise<void> {
    return this.#enqueue(async () => {
      const build = this.#build;
      if (this.#stopped || this.#process === undefined || build === undefined) return;
      const next = this.#options.env(this.slug);
      const changed = [...new Set([...Object.keys(next), ...Object.keys(this.#childEnv)])].filter((name) => next[name] !== this.#childEnv[name]).sort();
      if (changed.length === 0) return;
      await this.#process.stop(RELOAD_GRACE_MS);
      this.#process = undefined;
      if (await this.#serve(build)) this.#options.log.info(this.slug, `restarted: ${changed.join(", ")} changed (pid ${this.pid ?? "?"})`);
    });
  }

  /** Stops the child and deletes the builds; nothing restarts it afterwards. */
  stop(): Promise<void> {
    this.#stopped = true;
    return this.#enqueue(async () => {
      await this.#process?.stop(RELOAD_GRACE_MS);
      this.#process = undefined;
      if (this.#build !== undefined) await this.#options.output.discard(this.#build);
    });
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(task, task).catch((err: unknown) => this.#options.log.error(this.slug, messageOf(err)));
    return this.#queue;
  }

  async #rebuild(verb: "started" | "reloaded"): Promise<void> {
    if (this.#stopped) return;
    const { log, output } = this.#options;
    let build: WrittenBuild;
    try {
      this.#sourceDir = dirname(this.definition.sourcePath);
      const located = await locateFunction(this.definition);
      if (located.entry !== this.definition.sourcePath) this.#sourceDir = this.definition.sourcePath;
      build = await output.build(located.config, this.#options.workingDir);
    } catch (err) {
      this.#lastBuildFailed = true;
      log.error(this.slug, `build failed: ${messageOf(err)}\n${this.#process === undefined ? "not serving until the next good build" : "still serving the previous version"}`);
      return;
    }
    this.#lastBuildFailed = false;
    const previous = this.#build;
    await this.#process?.stop(RELOAD_GRACE_MS);
    this.#process = undefined;
    if (await this.#serve(build)) {
      this.#build = build;
      this.#quickExits = 0;
      if (previous !== undefined && previous.dir !== build.dir) await output.discard(previous);
      log.info(this.slug, `${verb} (pid ${this.pid ?? "?"})`);
      return;
    }
    await output.discard(build);
    if (previous !== undefined && (await this.#serve(previous))) log.info(this.slug, `still serving the previous version (pid ${this.pid ?? "?"})`);
  }

  /** Starts a child for `build` on the function's port; false (after reporting why) when it cannot serve. */
  async #serve(build: WrittenBuild): Promise<boolean> {
    const { log, repickPort } = this.#options;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.#startChild(build);
        this.#everServed = true;
        return true;
      } catch (err) {
        // An automatic port someone else took in the meantime: take the next free one (a few times).
        if (err instanceof FunctionHostError && err.reason === "port-in-use" && repickPort !== undefined && !this.#everServed && attempt < 5) {
          this.port = await repickPort();
          continue;
        }
        log.error(this.slug, messageOf(err));
        return false;
      }
    }
  }

  /** Starts the child; throws the host's error when it cannot serve. */
  async #startChild(build: WrittenBuild): Promise<void> {
    const { log } = this.#options;
    const env = this.#options.env(this.slug);
    const child = await startFunctionProcess({
      entry: build.entry,
      port: this.port,
      host: DEV_HOST,
      env,
      exposeStacks: true,
      ...(this.#options.spares === undefined ? {} : { spares: this.#options.spares }),
      onRequest: (record) => log.request(this.slug, record),
      onOutput: (line, stream) => log.output(this.slug, line, stream),
    });
    this.#process = child;
    this.#childEnv = env;
    this.#startedAt = Date.now();
    void child.exited.then((exit) => {
      if (exit.stopped || this.#stopped || this.#process !== child) return;
      this.#process = undefined;
      this.#onUnexpectedExit(exit.signal ?? `code ${exit.code}`);
    });
  }

  #onUnexpectedExit(how: string): void {
    const { log } = this.#options;
    this.#quickExits = Date.now() - this.#startedAt < CRASH_WINDOW_MS ? this.#quickExits + 1 : 1;
    if (this.#quickExits >= CRASH_LOOP) {
      log.error(this.slug, `exited (${how}) ${this.#quickExits} times in a row right after starting; waiting for a change before starting it again`);
      return;
    }
    log.info(this.slug, `exited (${how}); restarting`);
    const build = this.#build;
    if (build === undefined) return;
    void this.#enqueue(async () => {
      if (!this.#stopped && this.#process === undefined && (await this.#serve(build))) log.info(this.slug, `restarted (pid ${this.pid ?? "?"})`);
    });
  }
}
