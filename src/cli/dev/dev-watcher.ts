/**
 * Watches the directories of the files `svc dev` depends on (each function's import graph and
 * the policy file) and reports the changed paths after ~100 ms of quiet. Directories are watched
 * rather than files, so editors that save by renaming a new file over the old one are seen.
 * Files under `node_modules` are not watched (restart `svc dev` after installing packages).
 */
import { watch, type FSWatcher } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, join, sep } from "node:path";

/** The quiet time before changes are reported. */
export const DEBOUNCE_MS = 100;

/** Options of {@link DevWatcher}. */
export interface DevWatcherOptions {
  /** Receives the absolute paths that changed (a directory's path when the event named no file). */
  onChange: (paths: ReadonlySet<string>) => void;
  /** @default 100 */
  debounceMs?: number;
}

function isUnderNodeModules(path: string): boolean {
  return path.split(sep).includes("node_modules");
}

/**
 * What the watcher would have reported had it watched since `since` (epoch ms): each of `files`
 * modified after it or gone, and each of `directories` whose entries changed after it (the
 * directory's path, as the watcher reports it). For the edits made before the watcher started.
 */
export async function changedSince(files: Iterable<string>, directories: Iterable<string>, since: number): Promise<Set<string>> {
  const changed = new Set<string>();
  const modified = async (path: string): Promise<boolean> => ((await stat(path).catch(() => undefined))?.mtimeMs ?? Number.POSITIVE_INFINITY) > since;
  const checks = [...files].filter((file) => !isUnderNodeModules(file)).map(async (file) => {
    if (await modified(file)) changed.add(file);
  });
  for (const dir of directories) {
    if (isUnderNodeModules(dir)) continue;
    checks.push(
      (async () => {
        const entries = await readdir(dir).catch(() => []);
        const edited = await Promise.all([dir, ...entries.map((name) => join(dir, name))].map(modified));
        if (edited.some(Boolean)) changed.add(dir);
      })(),
    );
  }
  await Promise.all(checks);
  return changed;
}

/** A set of watched directories that follows the files it is told to watch. */
export class DevWatcher {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #pending = new Set<string>();
  readonly #options: DevWatcherOptions;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: DevWatcherOptions) {
    this.#options = options;
  }

  /** Watches the directories of `files` (and the `directories` themselves); stops watching the rest. */
  update(files: Iterable<string>, directories: Iterable<string> = []): void {
    if (this.#closed) return;
    const wanted = new Set<string>();
    for (const file of files) if (!isUnderNodeModules(file)) wanted.add(dirname(file));
    for (const dir of directories) if (!isUnderNodeModules(dir)) wanted.add(dir);
    for (const [dir, watcher] of this.#watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, (_event, name) => this.#record(name === null ? dir : join(dir, name.toString())));
        watcher.on("error", () => {
          watcher.close();
          this.#watchers.delete(dir);
        });
        this.#watchers.set(dir, watcher);
      } catch {
        // A directory that vanished cannot be watched; the next update tries again.
      }
    }
  }

  /** How many directories are watched. */
  get size(): number {
    return this.#watchers.size;
  }

  #record(path: string): void {
    if (this.#closed) return;
    this.#pending.add(path);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const paths = new Set(this.#pending);
      this.#pending.clear();
      this.#options.onChange(paths);
    }, this.#options.debounceMs ?? DEBOUNCE_MS);
  }

  /** Stops watching. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}
