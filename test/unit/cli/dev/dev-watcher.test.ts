/**
 * What `svc dev` catches up on once its watcher starts (`changedSince`): files edited or deleted
 * after the policy was read, and watched directories whose entries changed; hostile entries (a
 * FIFO, a dangling symbolic link) are looked at without being opened, and `node_modules` is left
 * out as the watcher leaves it out.
 */
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, utimesSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changedSince } from "../../../../src/cli/dev/dev-watcher.js";
import { createTempTree, type TempTree } from "../../../helpers/temp-dir.js";

let t: TempTree;
const PAST = new Date("2026-01-01T00:00:00Z");
const READ_AT = new Date("2026-06-01T00:00:00Z").getTime();

/** Writes a file dated before the read. */
function old(relative: string): string {
  t.write(relative, "x");
  utimesSync(t.path(relative), PAST, PAST);
  return t.path(relative);
}

beforeEach(() => {
  t = createTempTree();
});
afterEach(() => {
  t.remove();
});

describe("changedSince", () => {
  it("reports a file edited after the read and a file gone since, not one untouched", async () => {
    const untouched = old("src/a.ts");
    const edited = old("src/b.ts");
    const gone = old("src/c.ts");
    t.write("src/b.ts", "edited");
    rmSync(gone);
    expect(await changedSince([untouched, edited, gone], [], READ_AT)).toEqual(new Set([edited, gone]));
  });

  it("reports a watched directory by its path when one of its entries changed, and not otherwise", async () => {
    const quiet = t.path("quiet");
    old("quiet/index.mjs");
    utimesSync(quiet, PAST, PAST);
    const busy = t.path("busy");
    old("busy/index.mjs");
    t.write("busy/helper.mjs", "new");
    expect(await changedSince([], [quiet, busy], READ_AT)).toEqual(new Set([busy]));
  });

  it("looks at a FIFO and a dangling symbolic link in a watched directory without opening them", async () => {
    const dir = t.path("hostile");
    old("hostile/index.mjs");
    execFileSync("mkfifo", [t.path("hostile/pipe")]);
    symlinkSync(t.path("nowhere"), t.path("hostile/dangling"));
    utimesSync(t.path("hostile/pipe"), PAST, PAST);
    utimesSync(dir, PAST, PAST);
    // The dangling link has no target to stat: it counts as changed, which costs one rebuild.
    expect(await changedSince([t.path("hostile/pipe")], [dir], READ_AT)).toEqual(new Set([dir]));
  });

  it("leaves out files and directories under node_modules, as the watcher does", async () => {
    t.write("node_modules/pkg/index.js", "new");
    expect(await changedSince([t.path("node_modules/pkg/index.js")], [t.path("node_modules/pkg")], READ_AT)).toEqual(new Set());
  });
});
