/**
 * Where `svc dev` writes what it runs: one directory per build under
 * `<project>/node_modules/.cache/svc-config/dev/<pid>/<slug>/<n>/`. Inside the project's
 * `node_modules`, so packages left external resolve from the project as Node resolves them; one
 * directory per build, so the running version's files stay untouched until its successor serves.
 */
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ResolvedFunctionConfig } from "../../model/desired-state.js";

/** A build written to disk, ready to run. */
export interface WrittenBuild {
  /** The directory holding the build. */
  dir: string;
  /** Absolute path of the entry module (`index.mjs`, else `index.js`). */
  entry: string;
  /** Source files the build read (for the watcher); empty when unknown (a custom bundler). */
  inputs: string[];
}

/** The session's output directory, removed by {@link DevOutput.remove}. */
export class DevOutput {
  readonly root: string;
  #counter = 0;

  /** `projectDir` holds (or will hold) the `node_modules` the builds resolve packages from. */
  constructor(projectDir: string, sessionId: string = String(process.pid)) {
    this.root = join(projectDir, "node_modules", ".cache", "svc-config", "dev", sessionId);
  }

  /**
   * Builds `fn` with the deployment's bundler path (inline source maps) and writes the files.
   * Throws the bundler's `BundleError` (naming the function and file:line:column).
   */
  async build(fn: ResolvedFunctionConfig, workingDir: string | undefined): Promise<WrittenBuild> {
    const { buildDevFiles } = await import("../../bundle/archive.js");
    const built = await buildDevFiles(fn, workingDir === undefined ? {} : { workingDir });
    this.#counter += 1;
    const dir = join(this.root, fn.slug, String(this.#counter));
    await rm(dir, { recursive: true, force: true });
    for (const [path, bytes] of built.files) {
      const file = join(dir, ...path.split("/"));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes, { flag: "wx" });
    }
    const entry = join(dir, built.files.has("index.mjs") ? "index.mjs" : "index.js");
    return { dir, entry, inputs: built.inputs };
  }

  /** Deletes one build's directory (a replaced version). */
  async discard(build: WrittenBuild): Promise<void> {
    await rm(build.dir, { recursive: true, force: true });
  }

  /** Deletes what earlier sessions left behind (their process is gone: killed, or the machine restarted). */
  async removeStale(): Promise<void> {
    const parent = dirname(this.root);
    const own = basename(this.root);
    const entries = await readdir(parent).catch(() => []);
    await Promise.all(entries.filter((name) => name !== own && /^\d+$/.test(name) && !isAlive(Number(name))).map((name) => rm(join(parent, name), { recursive: true, force: true })));
  }

  /** Deletes everything this session wrote. */
  async remove(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
