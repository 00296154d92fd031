/**
 * The archives of one fleet run: each function source is bundled once for every branch that
 * declares it, and each branch gets the finished archive by reference (each upload reads and checks
 * its bytes; they are never unzipped and zipped again). Custom bundlers run per branch, as they may read the branch's function config.
 */
import type { ArchiveRef } from "../bundle/archive-ref.js";
import type { ResolvedFunction } from "../model/desired-state.js";

/** A bundling run: archives by slug and the bundler warnings of each slug. */
export type Bundle = (functions: readonly ResolvedFunction[]) => Promise<{ archives: ReadonlyMap<string, ArchiveRef>; warnings: ReadonlyMap<string, readonly string[]> }>;

/** One function's archive and warnings, as a branch receives them. */
interface Built {
  archive: ArchiveRef;
  warnings: readonly string[];
}

/** What decides an archive, besides the files it reads: the same key gives the same archive. */
export function archiveKey(fn: ResolvedFunction): string {
  return JSON.stringify([fn.slug, fn.sourcePath, fn.bundler, fn.sourcemap, fn.externalPackages ?? null]);
}

/** The archives shared by the branches of a run; see the module comment. */
export class SharedArchives {
  private readonly built = new Map<string, Promise<Built>>();

  /**
   * The archives of `functions` (by slug) and their warnings: those another branch started are
   * reused, the rest are bundled together in one run of `bundle`. A failed bundle rejects every
   * branch that needs one of its functions, with the bundler's error.
   */
  async archivesFor(functions: readonly ResolvedFunction[], bundle: Bundle): Promise<{ archives: Map<string, ArchiveRef>; warnings: { slug: string; message: string }[] }> {
    const shared = functions.filter((fn) => typeof fn.bundler !== "function");
    const missing = shared.filter((fn) => !this.built.has(archiveKey(fn)));
    if (missing.length > 0) {
      const run = bundle(missing);
      for (const fn of missing) {
        const one = run.then(({ archives, warnings }) => ({ archive: requireArchive(archives, fn.slug), warnings: warnings.get(fn.slug) ?? [] }));
        one.catch(() => undefined); // awaited below by every branch that needs it
        this.built.set(archiveKey(fn), one);
      }
    }
    const own = functions.filter((fn) => typeof fn.bundler === "function");
    const ownRun = own.length > 0 ? bundle(own) : undefined;
    const archives = new Map<string, ArchiveRef>();
    const warnings: { slug: string; message: string }[] = [];
    for (const fn of functions) {
      const got = ownRun === undefined || typeof fn.bundler !== "function"
        ? await (this.built.get(archiveKey(fn)) as Promise<Built>)
        : await ownRun.then(({ archives: a, warnings: w }) => ({ archive: requireArchive(a, fn.slug), warnings: w.get(fn.slug) ?? [] }));
      archives.set(fn.slug, got.archive);
      warnings.push(...got.warnings.map((message) => ({ slug: fn.slug, message })));
    }
    return { archives, warnings };
  }
}

function requireArchive(archives: ReadonlyMap<string, ArchiveRef>, slug: string): ArchiveRef {
  const archive = archives.get(slug);
  if (archive === undefined) throw new Error(`the bundler returned no archive for function ${slug}`);
  return archive;
}
