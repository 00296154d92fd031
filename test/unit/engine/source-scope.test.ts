import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigValidationError } from "../../../src/errors/index.js";
import { checkSourcesInsideProject } from "../../../src/engine/source-scope.js";

/** A project directory with `fn/index.ts` inside and `elsewhere/index.ts` outside it. */
function layout(): { project: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), "source-scope-"));
  const project = join(root, "project");
  const outside = join(root, "elsewhere");
  mkdirSync(join(project, "fn"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(project, "fn", "index.ts"), "export default () => new Response('hi');\n");
  writeFileSync(join(outside, "index.ts"), "export default () => new Response('out');\n");
  return { project, outside };
}

const fnAt = (slug: string, sourcePath: string) => ({ slug, sourcePath }) as never;

describe("function sources and the project directory", () => {
  it("accept sources inside the project, through a symlink that stays inside too, and leave a missing one to the bundler", async () => {
    const { project } = layout();
    symlinkSync(join(project, "fn"), join(project, "linked"));
    await expect(checkSourcesInsideProject({ baseDir: project, functions: [fnAt("a", join(project, "fn")), fnAt("b", join(project, "linked")), fnAt("c", join(project, "missing"))] })).resolves.toBeUndefined();
  });

  it("refuse every source that resolves outside, one issue each in path order, naming the resolved path and the link", async () => {
    const { project, outside } = layout();
    symlinkSync(outside, join(project, "escape"));
    const check = checkSourcesInsideProject({ baseDir: project, functions: [fnAt("zeta", join(project, "escape")), fnAt("inside", join(project, "fn")), fnAt("alpha", outside)] });
    const err = await check.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigValidationError);
    const issues = (err as ConfigValidationError).issues;
    expect(issues.map((i) => i.path)).toEqual(["functions.alpha.source", "functions.zeta.source"]);
    expect(issues[1]?.message).toContain(`resolves to ${outside} (through a symlink: ${join(project, "escape")})`);
    expect(issues[0]?.message).toContain("allowSourcesOutsideProject: true");
  });

  it("check nothing without a project directory, or when it cannot be resolved", async () => {
    const { project, outside } = layout();
    await expect(checkSourcesInsideProject({ baseDir: null, functions: [fnAt("alpha", outside)] })).resolves.toBeUndefined();
    await expect(checkSourcesInsideProject({ baseDir: join(project, "gone"), functions: [fnAt("alpha", outside)] })).resolves.toBeUndefined();
  });
});
