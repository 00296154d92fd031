/**
 * A running `svc dev`: every function in its own child on its own port, the watcher over their
 * import graphs and the policy file, and the reload rules: a source change rebuilds the functions
 * that read it; an edit of `svc.ts` restarts only the functions whose definition changed, starts
 * added ones and stops removed ones. Ports are chosen once and kept.
 */
import type { ResolvedFunction } from "../../model/desired-state.js";
import { SpareHosts } from "../../runtime/index.js";
import { functionEnvironment, PLATFORM_ENV, platformEnvironment, RESERVED_ENV_PREFIX, type PlatformEnvValues } from "../../rules/function-env.js";
import { DevFunction, type DevLog } from "./dev-function.js";
import type { DevOutput } from "./dev-output.js";
import { assignPorts, isPortFree, portTakenError } from "./dev-ports.js";
import { changedSince, DevWatcher } from "./dev-watcher.js";

/** Options of {@link DevSession}. */
export interface DevSessionOptions {
  output: DevOutput;
  /** esbuild's working directory (the policy's directory). */
  workingDir: string | undefined;
  /** The branch's platform variables (none without a branch). */
  platform: PlatformEnvValues | undefined;
  /**
   * The environment `svc dev` runs in; the functions inherit it (lowest precedence), except its
   * `SVC_*` variables: those configure the CLI (the API key among them) and, for a function, belong
   * to the platform.
   */
  inherited: Readonly<Record<string, string | undefined>>;
  log: DevLog;
  /** The policy file, watched when set: an edit calls `reloadPolicy`. */
  policyFile?: string;
  /** Evaluates the policy again; throws (reported, the running functions stay) when it is broken. */
  reloadPolicy?: () => Promise<readonly ResolvedFunction[]>;
  /** Reports a policy that failed to reload. */
  onPolicyError?: (err: unknown) => void;
  /** Fixed ports by slug (`--port` for `--source`); the rest are assigned. */
  fixedPorts?: ReadonlyMap<string, number>;
  /**
   * When the definitions given to `start` were read (epoch ms): a file edited after it, before the
   * watcher started, is taken as a change once it has. @default when `start` is called
   */
  readAt?: number;
}

/** A canonical text of the parts of a definition that change what runs. */
function definitionKey(fn: ResolvedFunction): string {
  const bundler = typeof fn.bundler === "function" ? `custom:${fn.bundler.toString()}` : fn.bundler;
  return JSON.stringify([fn.name, fn.sourcePath, Object.entries(fn.env).sort(), bundler, fn.sourcemap, fn.dev?.port ?? null, fn.externalPackages ?? []]);
}

/** The functions of one `svc dev` run. */
export class DevSession {
  readonly #options: DevSessionOptions;
  readonly #functions = new Map<string, DevFunction>();
  readonly #watcher: DevWatcher;
  /** One booted host waiting, so a reload does not wait for Node.js to start. */
  readonly #spares: SpareHosts;
  /** What the functions inherit: the environment without its `SVC_*` variables. */
  readonly #inherited: Record<string, string>;
  #changes: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: DevSessionOptions) {
    this.#options = options;
    this.#watcher = new DevWatcher({ onChange: (paths) => void this.#onChange(paths) });
    this.#inherited = Object.fromEntries(
      Object.entries(options.inherited).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].toUpperCase().startsWith(RESERVED_ENV_PREFIX)),
    );
    this.#spares = new SpareHosts({ env: this.#inherited, cwd: options.workingDir ?? process.cwd() });
  }

  /** The served functions, by slug order. */
  get functions(): DevFunction[] {
    return [...this.#functions.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  }

  /** The function `slug`, if served. */
  get(slug: string): DevFunction | undefined {
    return this.#functions.get(slug);
  }

  /** Names of the variables `slug` gets from the platform and its own env (the banner's list). */
  envNames(slug: string): string[] {
    const fn = this.#functions.get(slug);
    if (fn === undefined) return [];
    const env = functionEnvironment({ platform: this.#platformFor(slug), own: fn.definition.env });
    return Object.keys(env);
  }

  /**
   * Assigns ports (a `dev.port` taken is an error naming the function and port), then builds
   * and starts every function. Throws before starting anything when a port cannot be had.
   */
  async start(definitions: readonly ResolvedFunction[]): Promise<void> {
    const readAt = this.#options.readAt ?? Date.now();
    await this.#options.output.removeStale();
    await this.#add(definitions);
    const watched = this.#rewatch();
    // The watcher started after the first builds: what was edited while they ran is a change now.
    const missed = await changedSince(watched.files, watched.directories, readAt);
    if (missed.size > 0) await this.#onChange(missed);
  }

  async #add(definitions: readonly ResolvedFunction[]): Promise<DevFunction[]> {
    const fixed = this.#options.fixedPorts ?? new Map<string, number>();
    const held = new Set([...this.#functions.values()].map((f) => f.port));
    const requests = definitions.filter((d) => !fixed.has(d.slug)).map((d) => (d.dev?.port === undefined ? { slug: d.slug } : { slug: d.slug, devPort: d.dev.port }));
    for (const [slug, port] of fixed) {
      if (definitions.some((d) => d.slug === slug) && !(await isPortFree(port))) throw portTakenError(slug, port, "another process", "--port");
    }
    const ports = await assignPorts(requests, { held: new Set([...held, ...fixed.values()]) });
    const added = definitions.map((definition) => {
      const port = fixed.get(definition.slug) ?? ports.get(definition.slug) ?? 0;
      const automatic = !fixed.has(definition.slug) && definition.dev?.port === undefined;
      const fn = new DevFunction({
        definition,
        port,
        output: this.#options.output,
        workingDir: this.#options.workingDir,
        env: (slug) => this.#envFor(slug),
        log: this.#options.log,
        spares: this.#spares,
        ...(automatic ? { repickPort: () => this.#nextFreePort(definition.slug) } : {}),
      });
      this.#functions.set(definition.slug, fn);
      return fn;
    });
    await Promise.all(added.map((fn) => fn.start()));
    return added;
  }

  /** A free port for `slug` that no served function holds, from 8787 upward. */
  async #nextFreePort(slug: string): Promise<number> {
    const held = new Set([...this.#functions.values()].map((f) => f.port));
    const ports = await assignPorts([{ slug }], { held });
    return ports.get(slug) ?? 0;
  }

  #platformFor(slug: string): Record<string, string> {
    const platform = this.#options.platform;
    // Functions served here call each other here: their local URLs win over the deployed ones.
    const local = Object.fromEntries([...this.#functions.values()].map((f) => [f.slug, f.url]));
    if (platform === undefined) return platformEnvironmentWithoutBranch(local, slug);
    return platformEnvironment({ ...platform, functionUrls: { ...platform.functionUrls, ...local } }, slug);
  }

  #envFor(slug: string): Record<string, string> {
    const fn = this.#functions.get(slug);
    return functionEnvironment({ inherited: this.#inherited, platform: this.#platformFor(slug), own: fn?.definition.env ?? {} });
  }

  /** Points the watcher at the functions' inputs and the policy file; returns what it watches. */
  #rewatch(): { files: string[]; directories: string[] } {
    const files = [...this.#functions.values()].flatMap((f) => [...f.inputs]);
    if (this.#options.policyFile !== undefined) files.push(this.#options.policyFile);
    const directories = [...this.#functions.values()].flatMap((f) => f.watchDirectories);
    this.#watcher.update(files, directories);
    return { files, directories };
  }

  #onChange(paths: ReadonlySet<string>): Promise<void> {
    this.#changes = this.#changes.then(async () => {
      if (this.#closed) return;
      const policyChanged = this.#options.policyFile !== undefined && paths.has(this.#options.policyFile);
      const reloaded = policyChanged ? await this.#reloadPolicy() : new Set<string>();
      await Promise.all(this.functions.filter((f) => !reloaded.has(f.slug) && f.affectedBy(paths)).map((f) => f.reload()));
      this.#rewatch();
    });
    return this.#changes;
  }

  /** Applies an edited policy; returns the slugs it restarted or started. */
  async #reloadPolicy(): Promise<Set<string>> {
    const touched = new Set<string>();
    let definitions: readonly ResolvedFunction[];
    try {
      definitions = (await this.#options.reloadPolicy?.()) ?? [];
    } catch (err) {
      this.#options.onPolicyError?.(err);
      return touched;
    }
    const next = new Map(definitions.map((d) => [d.slug, d]));
    const removed = [...this.#functions.values()].filter((f) => !next.has(f.slug));
    await Promise.all(
      removed.map(async (f) => {
        this.#functions.delete(f.slug);
        await f.stop();
        this.#options.log.info(f.slug, "removed from svc.ts; stopped");
      }),
    );
    const moved: ResolvedFunction[] = [];
    const changed: [DevFunction, ResolvedFunction][] = [];
    for (const definition of definitions) {
      const fn = this.#functions.get(definition.slug);
      if (fn === undefined) continue;
      if ((fn.definition.dev?.port ?? null) !== (definition.dev?.port ?? null)) moved.push(definition);
      else if (definitionKey(fn.definition) !== definitionKey(definition)) changed.push([fn, definition]);
    }
    for (const definition of moved) {
      const fn = this.#functions.get(definition.slug);
      this.#functions.delete(definition.slug);
      await fn?.stop();
    }
    const added = definitions.filter((d) => !this.#functions.has(d.slug));
    try {
      for (const fn of await this.#add(added)) touched.add(fn.slug);
    } catch (err) {
      this.#options.onPolicyError?.(err);
    }
    await Promise.all(changed.map(([fn, definition]) => fn.reload(definition)));
    for (const [fn] of changed) touched.add(fn.slug);
    // The others keep their build; those whose set of function URLs changed restart with the new one.
    await Promise.all(this.functions.filter((f) => !touched.has(f.slug)).map((f) => f.refreshEnvironment()));
    return touched;
  }

  /** Stops the watcher and every child, and deletes the builds. */
  async stop(): Promise<void> {
    this.#closed = true;
    this.#watcher.close();
    this.#spares.close();
    await Promise.all([...this.#functions.values()].map((f) => f.stop()));
    await this.#options.output.remove();
  }
}

/** Without a branch only the other local functions' URLs are known. */
function platformEnvironmentWithoutBranch(local: Readonly<Record<string, string>>, slug: string): Record<string, string> {
  const env = platformEnvironment({ branchName: "", functionUrls: local }, slug);
  delete env[PLATFORM_ENV.branch];
  return env;
}
