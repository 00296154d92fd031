/**
 * Bundles every declared function before any mutation: at most `concurrency`
 * builds at once; esbuild functions with the same build options go through as few esbuild calls
 * as the output budget allows (output-budget.ts: batches sized from the bytes per entry measured,
 * started while their outputs fit); with a cache directory an unchanged function is
 * never rebuilt (and esbuild is not even loaded when every function hits); every failure is
 * collected into one `BundleError`.
 */
import { CONCURRENCY_CEILING, isConcurrency } from "../rules/concurrency.js";
import pLimit from "p-limit";
import { setImmediate } from "node:timers/promises";
import type { ResolvedFunction, ResolvedFunctionConfig } from "../model/desired-state.js";
import { BundleError, CancelledError, ErrorCode, PlatformError, type BundleFailure } from "../errors/index.js";
import { ArchiveCache, type ArchiveMemory, buildIdentity, createFileHasher, esbuildInputHashes, identityTemplate, inputsUnchanged, type FileHasher, type PendingWrites, type ResolutionPaths } from "./archive-cache.js";
import {
  asBundleError,
  buildArchive,
  esbuildWorkingDir,
  ESBUILD_ORIGIN,
  finishArchive,
  type BuildFunctionArchiveOptions,
} from "./archive.js";
import { type ArchiveRef, heldArchive } from "./archive-ref.js";
import { locateFunction, type LocatedFunction } from "./entry.js";
import { esbuildOptions, runEsbuild, type EsbuildOutput } from "./esbuild-bundler.js";
import { PackageStager, resolveExternals, withStagedFiles, type FunctionExternals } from "./external-packages.js";
import { undeclaredNativeWarnings } from "./external-packages-native.js";
import { esbuildVersion } from "./lazy-modules.js";
import { type BatchLease, OutputBudget } from "./output-budget.js";

/** Default number of functions bundled at once. */
export const DEFAULT_BUNDLE_CONCURRENCY = 8;

/** Entry searches and cache lookups in flight at once: small reads, bounded only to spare file handles. */
const LOOKUP_CONCURRENCY = 64;

/** Progress of one function's bundle, for the engine's `bundle` event. */
export type BundleProgress =
  | { slug: string; phase: "start" }
  | { slug: string; phase: "done"; zipBytes: number; zipSha256: string };

/** Options of {@link bundleFunctions}. */
export interface BundleFunctionsOptions extends Omit<BuildFunctionArchiveOptions, "cache"> {
  /**
   * At most this many builds run at once (1–64); a batched esbuild call counts as one.
   * @default 8
   */
  concurrency?: number;
  /** Called when a function starts and finishes bundling; its exceptions are ignored. */
  onProgress?: (progress: BundleProgress) => void;
  /** The content-addressed archive cache. @default none: every function is built */
  cacheDir?: string;
  /** Archives of earlier calls of this run, reused while their inputs are unchanged, and added to. @default none */
  memory?: ArchiveMemory;
  /**
   * Stage each function's `externalPackages` into its archive (npm and the registry, or the
   * cache). `false` keeps them external without shipping them, for offline checks.
   * @default true
   */
  stageExternalPackages?: boolean;
  /**
   * Internal. When given, the call returns once every archive is made, without waiting for the
   * cache entries to be written: the writes are added here, each archive keeps its bytes until its
   * entry is complete (then it is read back from the entry, as a cached archive is), and the caller
   * waits for `pendingWrites.settled()` before its operation ends. @default none: the call returns
   * once every entry is written
   */
  pendingWrites?: PendingWrites;
  /**
   * Stops the run: no lookup or esbuild batch starts after it aborts, outputs that arrive are not
   * made into archives or cached, and the call rejects with `PLATFORM_CANCELLED` once the builds
   * already running have ended (so nothing of the run is left working). @default none
   */
  signal?: AbortSignal;
}

/** An esbuild function waiting for its build. */
interface EsbuildJob {
  fn: ResolvedFunctionConfig;
  entry: string;
  workingDir: string;
  /** Its `externalPackages`, with the installed versions. */
  externals: FunctionExternals;
  /** Where its archive is cached; absent without a cache. */
  identity?: string;
}

type Outcome = ArchiveRef | BundleError;

/**
 * Bundles `functions` (entry search included, unless already located) and returns their archives by slug, in input
 * order: by reference, each kept by its cache entry when `cacheDir` is given (read back when
 * uploaded, see `archive-ref.ts`), else with its bytes held. When any fails, the others still
 * finish and one `BundleError` lists every failure.
 * Throws `PLATFORM_INVALID_OPTIONS` for a concurrency outside 1–64.
 */
export async function bundleFunctions(
  functions: readonly (ResolvedFunction | LocatedFunction)[],
  options: BundleFunctionsOptions = {},
): Promise<Map<string, ArchiveRef>> {
  const concurrency = options.concurrency ?? DEFAULT_BUNDLE_CONCURRENCY;
  if (!isConcurrency(concurrency)) {
    throw new PlatformError(
      ErrorCode.INVALID_OPTIONS,
      `concurrency must be an integer from 1 to ${CONCURRENCY_CEILING}, got ${String(concurrency)}`,
      { details: { option: "concurrency", value: String(concurrency) } },
    );
  }
  const run = new BundleRun(options, pLimit(concurrency));
  await Promise.all(functions.map((fn) => run.start(fn)));
  // Input order, so a batch's entries do not depend on which lookup finished first.
  const order = new Map(functions.map((fn, i) => [slugOf(fn), i]));
  const waiting = run.waiting.sort((a, b) => (order.get(a.fn.slug) ?? 0) - (order.get(b.fn.slug) ?? 0));
  await Promise.all(groupJobs(waiting).map((entries) => run.buildInBatches(entries)));
  if (options.signal?.aborted === true) throw new CancelledError("bundling");

  const archives = new Map<string, ArchiveRef>();
  const errors: BundleError[] = [];
  for (const fn of functions) {
    const outcome = run.outcomes.get(slugOf(fn));
    if (outcome instanceof BundleError) errors.push(outcome);
    else if (outcome !== undefined) archives.set(slugOf(fn), outcome);
  }
  if (errors.length > 0) {
    const failures: BundleFailure[] = errors.flatMap((e) => e.failures);
    throw new BundleError(failures, errors.length === 1 ? errors[0]?.cause : undefined);
  }
  return archives;
}

/** The state of one {@link bundleFunctions} call. */
class BundleRun {
  readonly outcomes = new Map<string, Outcome>();
  /** esbuild functions the cache did not have, built together afterwards. */
  readonly waiting: EsbuildJob[] = [];
  private readonly cache: ArchiveCache | undefined;
  private readonly hash: FileHasher = createFileHasher();
  /** The resolution files above each directory, for the entries' input lists. */
  private readonly resolutionPaths: ResolutionPaths = new Map();
  private readonly lookups = pLimit(LOOKUP_CONCURRENCY);
  /** The identity of an entry, by its other build options (working directory, source map, externals, staged packages). */
  private readonly identities = new Map<string, (entry: string) => string>();
  private readonly stager: PackageStager;
  private readonly budget = new OutputBudget();

  constructor(
    private readonly options: BundleFunctionsOptions,
    private readonly limit: ReturnType<typeof pLimit>,
  ) {
    const { cacheDir, memory, pendingWrites } = options;
    this.cache = cacheDir === undefined && memory === undefined ? undefined : new ArchiveCache(cacheDir, memory, pendingWrites);
    this.stager = new PackageStager(cacheDir);
  }

  /**
   * Finds the function's entry, then builds it on its own (custom bundlers, `"none"`, the
   * `bundleFunction` option), reuses its cached archive, or leaves it for a batched build.
   */
  start(fn: ResolvedFunction | LocatedFunction): Promise<void> {
    const slug = slugOf(fn);
    return this.lookups(async () => {
      if (this.stopped()) return;
      this.progress({ slug, phase: "start" });
      try {
        const located = "config" in fn ? fn : await locateFunction(fn);
        const { config, entry } = located;
        if (this.options.bundleFunction !== undefined || config.bundler !== "esbuild" || entry === null) {
          this.settle(slug, await this.buildAlone(config));
          return;
        }
        const workingDir = this.options.workingDir ?? (await esbuildWorkingDir(config, entry, located.sourceKind));
        const externals = await resolveExternals(config.externalPackages, entry);
        const job: EsbuildJob = { fn: config, entry, workingDir, externals, ...this.identityOf(entry, workingDir, config.sourcemap === true, externals) };
        const hit = job.identity === undefined ? undefined : await this.cache?.lookup(job.identity, (inputs) => inputsUnchanged(inputs, this.hash));
        if (hit === undefined) {
          this.waiting.push(job);
          return;
        }
        for (const message of hit.warnings) this.warn(slug, message);
        this.settle(slug, { slug, ...hit.archive });
      } catch (err) {
        this.settle(slug, asBundleError(slug, err));
      }
    });
  }

  /**
   * Builds a function on its own path (custom bundler, `"none"`, the `bundleFunction` option, an
   * esbuild source without an entry). A custom bundler's output has no files to re-hash, so it is
   * reused only from this run's memory, and only for the same bundler function and function config.
   */
  private async buildAlone(config: ResolvedFunctionConfig): Promise<ArchiveRef> {
    const cache = this.cache;
    const build = () => buildArchive(config, { ...this.options, ...(cache ? { cache } : {}) });
    if (cache === undefined || typeof config.bundler !== "function" || this.options.bundleFunction !== undefined) return this.limit(build);
    const identity = buildIdentity({ bundler: "custom", instance: customBundlerId(config.bundler), fn: { ...config, bundler: undefined } });
    const kept = cache.recall(identity);
    if (kept !== undefined) return { slug: config.slug, ...kept.archive };
    const archive = await this.limit(build);
    cache.remember(identity, { archive, warnings: [] });
    return archive;
  }

  /**
   * Builds entries sharing one working directory, source-map setting and externals, in input
   * order, in batches the output budget admits (each batch one esbuild call).
   */
  async buildInBatches(entries: readonly EsbuildJob[][]): Promise<void> {
    const batches: Promise<void>[] = [];
    for (let next = 0; next < entries.length && !this.stopped(); ) {
      const lease = await this.budget.admit(entries.length - next);
      if (this.stopped()) {
        lease.close();
        break;
      }
      const batch = entries.slice(next, next + lease.entries);
      next += batch.length;
      const built = this.build(batch, lease);
      // Awaited below with the others; marked handled so the loop's next wait cannot leave it unhandled.
      built.catch(() => undefined);
      batches.push(built);
    }
    await Promise.all(batches);
  }

  /**
   * Builds one batch (its jobs grouped by entry) in one esbuild call. A failed batch cannot tell
   * whose error it is, so its entries are built one by one: each failure then names its function
   * exactly as a solo build does.
   */
  private async build(entries: readonly EsbuildJob[][], lease: BatchLease): Promise<void> {
    let split: boolean;
    try {
      split = await this.limit(() => this.buildTogether(entries, lease));
    } finally {
      lease.close();
    }
    if (split && !this.stopped()) await Promise.all(entries.map(async (same) => this.build([same], await this.budget.admit(1))));
  }

  /**
   * Returns true when a batch of several entries failed and must be split. Each entry's output
   * is released (from the lease and from memory) as soon as its functions' archives are made.
   */
  private async buildTogether(entries: readonly EsbuildJob[][], lease: BatchLease): Promise<boolean> {
    const first = entries[0]?.[0];
    if (first === undefined || this.stopped()) return false;
    let outputs: (EsbuildOutput | undefined)[];
    try {
      outputs = await runEsbuild({ entries: entries.map((same) => same[0]?.entry ?? first.entry), workingDir: first.workingDir, sourcemap: first.fn.sourcemap === true, external: first.externals.external });
    } catch (err) {
      if (entries.length > 1) return true;
      for (const job of entries.flat()) this.settle(job.fn.slug, asBundleError(job.fn.slug, err));
      return false;
    }
    const sizes = outputs.map(outputBytes);
    lease.measured(sizes);
    // One turn first: the batches the measured sizes admit reach esbuild before this thread
    // makes these archives (the first batch's are also the first deflate and ZIP of the run).
    await setImmediate();
    await Promise.all(
      entries.map(async (same, i) => {
        await Promise.all(same.map((job) => this.finish(job, outputs[i])));
        outputs[i] = undefined;
        lease.release(sizes[i] ?? 0);
      }),
    );
    return false;
  }

  /** Makes, caches and settles one function's archive from its entry's esbuild output. */
  private async finish(job: EsbuildJob, output: EsbuildOutput | undefined): Promise<void> {
    if (this.stopped()) return;
    try {
      if (output === undefined) throw new Error(`esbuild gave no output for ${job.entry}`);
      const warnings = [...output.warnings, ...(await undeclaredNativeWarnings(job.fn.slug, output.inputs, job.externals.external))];
      for (const message of warnings) this.warn(job.fn.slug, message);
      const staged = this.stages() ? await this.stager.stage(job.externals.packages) : new Map<string, Uint8Array>();
      const archive = heldArchive(await finishArchive(job.fn.slug, withStagedFiles(output.files, staged), ESBUILD_ORIGIN));
      const cache = job.identity === undefined ? undefined : this.cache;
      // Once in the cache directory, the archive is kept by its entry and its bytes are released.
      const stored = cache === undefined || job.identity === undefined ? archive : { slug: job.fn.slug, ...(await cache.store(job.identity, await esbuildInputHashes(output.inputs, this.hash, this.resolutionPaths), { archive, warnings })) };
      this.settle(job.fn.slug, stored);
    } catch (err) {
      this.settle(job.fn.slug, asBundleError(job.fn.slug, err));
    }
  }

  /**
   * The cache identity of an esbuild build: its exact options (entry, working directory and
   * externals included), esbuild's version, and the names and versions of the packages it stages.
   */
  private identityOf(entry: string, workingDir: string, sourcemap: boolean, externals: FunctionExternals): { identity?: string } {
    const version = this.cache === undefined ? undefined : esbuildVersion();
    if (version === undefined) return {};
    const staged = externals.packages.filter((p) => p.includeFiles).map((p) => [p.name, p.version]);
    const key = JSON.stringify([workingDir, sourcemap, externals.external, staged]);
    let identityFor = this.identities.get(key);
    if (identityFor === undefined) {
      identityFor = identityTemplate((one) => ({
        bundler: "esbuild",
        esbuild: version,
        options: esbuildOptions({ entries: [one], workingDir, sourcemap, external: externals.external }),
        ...(staged.length === 0 ? {} : { staged: this.stages() ? staged : false }),
      }));
      this.identities.set(key, identityFor);
    }
    return { identity: identityFor(entry) };
  }

  /** Whether the run's signal aborted: nothing new starts. */
  private stopped(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** Whether external packages are staged into archives (not in offline checks). */
  private stages(): boolean {
    return this.options.stageExternalPackages !== false;
  }

  private settle(slug: string, outcome: Outcome): void {
    this.outcomes.set(slug, outcome);
    if (!(outcome instanceof BundleError)) this.progress({ slug, phase: "done", zipBytes: outcome.zipBytes, zipSha256: outcome.zipSha256 });
  }

  private progress(event: BundleProgress): void {
    try {
      this.options.onProgress?.(event);
    } catch {
      // A failing progress listener must not fail the bundle.
    }
  }

  private warn(slug: string, message: string): void {
    try {
      this.options.onWarning?.({ slug, message });
    } catch {
      // A failing warning listener must not fail the bundle.
    }
  }
}

/** A number per custom bundler function, so a memory key tells two bundlers apart. */
const customBundlerIds = new WeakMap<object, number>();
let nextCustomBundlerId = 0;

function customBundlerId(bundler: object): number {
  const known = customBundlerIds.get(bundler);
  if (known !== undefined) return known;
  const id = nextCustomBundlerId++;
  customBundlerIds.set(bundler, id);
  return id;
}

function slugOf(fn: ResolvedFunction | LocatedFunction): string {
  return "config" in fn ? fn.config.slug : fn.slug;
}

/** Jobs with the same build options (working directory, source map, externals), grouped by entry, in input order. */
function groupJobs(jobs: readonly EsbuildJob[]): EsbuildJob[][][] {
  const byOptions = new Map<string, EsbuildJob[]>();
  for (const job of jobs) {
    const key = `${job.workingDir}\u0000${job.fn.sourcemap === true}\u0000${job.externals.external.join(",")}`;
    pushTo(byOptions, key, job);
  }
  return [...byOptions.values()].map(groupByEntry);
}

/** The bytes of one esbuild output's files (its code and any source map). */
function outputBytes(output: EsbuildOutput | undefined): number {
  let bytes = 0;
  for (const contents of output?.files.values() ?? []) bytes += contents.byteLength;
  return bytes;
}

/** Jobs grouped by entry file (functions sharing an entry are built once). */
function groupByEntry(jobs: readonly EsbuildJob[]): EsbuildJob[][] {
  const byEntry = new Map<string, EsbuildJob[]>();
  for (const job of jobs) pushTo(byEntry, job.entry, job);
  return [...byEntry.values()];
}

function pushTo<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [item]);
  else group.push(item);
}
