/**
 * Bundling started as soon as a policy is loaded, before its branch is read (the CLI's `plan` and
 * `apply`; internal). What a function is built from is static (`declaredBuilds`: a branch's
 * closure overrides only runtimes and custom domains), so the builds overlap the target's reads,
 * the first read wave and the policy's resolution instead of starting after them. The plan's
 * bundling (`bundleAll` in `prepare-plan.ts`) takes the head start's archives only when its
 * resolved functions are built from the same sources with the same settings; it then hears the
 * head start's progress and warnings, in the order they came, as if it had bundled itself, and a
 * bundling error is thrown at the same point of the plan as before. Otherwise the plan cancels it
 * and bundles as before.
 *
 * Started only when some build is cold (no cache directory, or fewer entries in it than
 * functions): a warm cache's lookups run without yielding to the event loop, and started early
 * they would hold the reads' answers, so a plan with a warm cache looks its archives up itself.
 * Never started for custom bundlers, which may read the branch's function config, nor for a
 * policy with a branch closure: the closure runs between this start and the plan's take, and may
 * write a file a function imports (a generated config); a build already running or done would have
 * read it before the closure wrote it, and its archive would deploy that older content. Such a plan
 * bundles itself, after the closure, as before.
 *
 * A plan that fails before taking it (a target, auth or policy error) calls
 * {@link BundleHeadStart.cancel}: nothing new starts, esbuild calls already running end before the
 * error is reported, and their outputs are neither made into archives nor cached.
 *
 * Its archives are handed to the plan once they are made, before their bundle cache entries are
 * written: the plan's diff and result overlap the writes (each archive keeps its bytes until its
 * entry is complete), and whoever started the head start waits for
 * {@link BundleHeadStart.written} (or {@link BundleHeadStart.cancel}) before the command ends.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { cachedEntryCount, type ArchiveMemory, PendingWrites } from "../bundle/archive-cache.js";
import type { ArchiveRef } from "../bundle/archive-ref.js";
import { type BundleProgress, bundleFunctions } from "../bundle/bundle-many.js";
import { policyFileOf } from "../config/policy-origin.js";
import type { PolicyConfig } from "../config/policy-types.js";
import { declaredBuilds, declaredFunctionCount } from "../kinds/list.js";
import { isConcurrency } from "../rules/concurrency.js";
import type { ResolvedFunction } from "../model/desired-state.js";
import { withMemory } from "./run-archives.js";
import { archiveKey } from "./shared-archives.js";
import { checkSourcesInsideProject } from "./source-scope.js";

/** Options of {@link startBundleHeadStart}: those of the plan that will take it. */
export interface BundleHeadStartOptions {
  /** The plan's `cacheDir`. */
  cacheDir?: string;
  /** The plan's `concurrency`. @default 8 */
  concurrency?: number;
  /** The plan's `allowSourcesOutsideProject`: without it, sources are checked before anything is built. */
  allowSourcesOutsideProject?: boolean;
  /** The plan's `baseDir`. */
  baseDir?: string;
  /** Cancels the head start when it aborts (an interrupted command). */
  signal?: AbortSignal;
}

/** What a plan bundles with; a head start is taken only when they equal its own. */
export interface BundleSettings {
  cacheDir?: string;
  memory?: ArchiveMemory;
  workingDir?: string;
  bundleFunction?: unknown;
}

/** Where a plan hears bundling progress and warnings. */
export interface BundleListeners {
  onProgress: (progress: BundleProgress) => void;
  onWarning: (warning: { slug: string; message: string }) => void;
}

type Heard = { progress: BundleProgress } | { warning: { slug: string; message: string } };

function tell(listeners: BundleListeners, heard: Heard): void {
  if ("progress" in heard) listeners.onProgress(heard.progress);
  else listeners.onWarning(heard.warning);
}

/** Builds started before the plan; see the module comment. */
export class BundleHeadStart {
  readonly #controller = new AbortController();
  readonly #writes = new PendingWrites();
  readonly #heard: Heard[] = [];
  readonly #functions: readonly ResolvedFunction[];
  readonly #settings: BundleSettings;
  /** The archives, or `undefined` when the sources check refused to start (the plan's own check reports it). */
  readonly #run: Promise<ReadonlyMap<string, ArchiveRef> | undefined>;
  #listeners: BundleListeners | undefined;
  #taken = false;

  constructor(functions: readonly ResolvedFunction[], settings: BundleSettings, options: { concurrency: number; checkSources: boolean; signal?: AbortSignal }) {
    this.#functions = functions;
    this.#settings = settings;
    const onAbort = (): void => this.#controller.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    this.#run = this.#bundle(options).finally(() => options.signal?.removeEventListener("abort", onAbort));
    this.#run.catch(() => undefined); // taken by the plan, or settled by cancel()
  }

  async #bundle(options: { concurrency: number; checkSources: boolean }): Promise<ReadonlyMap<string, ArchiveRef> | undefined> {
    const workingDir = this.#settings.workingDir;
    if (options.checkSources) {
      try {
        await checkSourcesInsideProject({ baseDir: workingDir ?? null, functions: [...this.#functions] });
      } catch {
        return undefined;
      }
    }
    return bundleFunctions(this.#functions, {
      concurrency: options.concurrency,
      ...(this.#settings.cacheDir === undefined ? {} : { cacheDir: this.#settings.cacheDir }),
      ...(this.#settings.memory === undefined ? {} : { memory: this.#settings.memory }),
      ...(workingDir === undefined ? {} : { workingDir }),
      signal: this.#controller.signal,
      pendingWrites: this.#writes,
      onProgress: (progress) => this.#hear({ progress }),
      onWarning: (warning) => this.#hear({ warning }),
    });
  }

  #hear(heard: Heard): void {
    if (this.#listeners === undefined) this.#heard.push(heard);
    else tell(this.#listeners, heard);
  }

  /**
   * The archives of `functions` when they and `settings` are the ones this head start builds
   * (`listeners` then hear its progress and warnings so far, in order, and what follows); rejects
   * with its bundling error. `undefined` when the plan must bundle itself: the head start is then
   * cancelled (and over) first. Taken at most once.
   */
  async take(functions: readonly ResolvedFunction[], settings: BundleSettings, listeners: BundleListeners): Promise<ReadonlyMap<string, ArchiveRef> | undefined> {
    if (this.#taken || this.#controller.signal.aborted || !sameSettings(settings, this.#settings) || !sameBuilds(functions, this.#functions)) {
      await this.cancel();
      return undefined;
    }
    this.#taken = true;
    for (const heard of this.#heard.splice(0)) tell(listeners, heard);
    this.#listeners = listeners;
    return this.#run;
  }

  /**
   * Resolves once the head start's bundle cache entries are written (or their writes failed: those
   * archives keep their bytes); never rejects. Its archives may be taken before.
   */
  async written(): Promise<void> {
    await this.#run.catch(() => undefined);
    await this.#writes.settled();
  }

  /** Stops the head start and resolves once none of its work is running, cache writes included; never rejects. */
  async cancel(): Promise<void> {
    this.#controller.abort();
    await this.written();
  }
}

/**
 * Starts bundling the functions `config` declares, with the settings of the plan that will take
 * it (see the module comment); `undefined` when nothing is worth starting or anything is off (the
 * plan then bundles, and reports, as before).
 */
export function startBundleHeadStart(config: PolicyConfig, options: BundleHeadStartOptions): BundleHeadStart | undefined {
  const concurrency = options.concurrency ?? 8;
  if (!isConcurrency(concurrency)) return undefined;
  if (options.baseDir !== undefined && !isAbsolute(options.baseDir)) return undefined;
  if (typeof config !== "object" || config === null) return undefined;
  if (typeof (config as { branch?: unknown }).branch === "function") return undefined;
  const file = policyFileOf(config);
  const baseDir = options.baseDir !== undefined ? resolve(options.baseDir) : file === undefined ? null : dirname(file);
  const cacheDir = options.cacheDir === undefined ? undefined : resolve(options.cacheDir);
  let functions: ResolvedFunction[];
  try {
    // Counted before resolving: a warm cache (the usual no-op plan) costs one directory listing.
    if (cacheDir !== undefined && cachedEntryCount(cacheDir) >= declaredFunctionCount(config)) return undefined;
    functions = declaredBuilds(config, baseDir);
  } catch {
    return undefined;
  }
  if (functions.length === 0 || functions.some((fn) => typeof fn.bundler === "function")) return undefined;
  const settings: BundleSettings = { ...(cacheDir === undefined ? {} : { cacheDir }), ...withMemory(config), ...(baseDir === null ? {} : { workingDir: baseDir }) };
  return new BundleHeadStart(functions, settings, { concurrency, checkSources: options.allowSourcesOutsideProject !== true, ...(options.signal === undefined ? {} : { signal: options.signal }) });
}

function sameSettings(a: BundleSettings, b: BundleSettings): boolean {
  return a.bundleFunction === undefined && b.bundleFunction === undefined && a.cacheDir === b.cacheDir && a.memory === b.memory && a.workingDir === b.workingDir;
}

function sameBuilds(a: readonly ResolvedFunction[], b: readonly ResolvedFunction[]): boolean {
  return a.length === b.length && a.every((fn, i) => {
    const other = b[i];
    return other !== undefined && archiveKey(fn) === archiveKey(other);
  });
}
