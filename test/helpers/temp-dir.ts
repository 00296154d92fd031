import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A real directory tree under the OS temp directory, removed by `remove()`. */
export interface TempTree {
  /** Absolute, symlink-free path of the tree's root. */
  root: string;
  /** Absolute path of `relative` inside the tree. */
  path(relative?: string): string;
  /** Writes `content` to `relative`, creating parent directories. Returns the absolute path. */
  write(relative: string, content: string): string;
  /** Creates the directory `relative` (and its parents). Returns the absolute path. */
  mkdir(relative: string): string;
  /** Deletes the whole tree. */
  remove(): void;
}

/**
 * Creates a temporary directory tree holding `files` (relative path → content). A path ending
 * in `/` is created as an empty directory.
 */
export function createTempTree(files: Record<string, string> = {}): TempTree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "svc-config-test-")));
  const tree: TempTree = {
    root,
    path: (relative = ".") => join(root, relative),
    write(relative, content) {
      const file = join(root, relative);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    mkdir(relative) {
      const dir = join(root, relative);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) {
    if (relative.endsWith("/")) tree.mkdir(relative);
    else tree.write(relative, content);
  }
  return tree;
}
