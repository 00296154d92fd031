/**
 * `svc dev` with `externalPackages`: the package is left out of the bundle, as a deployment leaves
 * it, and the running function loads it from the project's `node_modules` (here hoisted to the
 * root of a workspace, above the app that holds svc.ts), as Node.js resolves it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/harness.js";
import { devProject, freePort, startDev } from "./dev-harness.js";

// The package reads a file beside its own code: bundled, its __dirname would be the build's
// directory and the read would fail, so the answer proves it ran from node_modules.
const PACKAGE = {
  "node_modules/greeting-pkg/package.json": JSON.stringify({ name: "greeting-pkg", version: "1.2.3", main: "index.js" }),
  "node_modules/greeting-pkg/index.js": 'const { readFileSync } = require("node:fs");\nconst { join } = require("node:path");\nexports.greeting = () => readFileSync(join(__dirname, "greeting.txt"), "utf8").trim() + " from " + __dirname;\n',
  "node_modules/greeting-pkg/greeting.txt": "hello from the package\n",
};

describe("svc dev with externalPackages", () => {
  it("serves a function whose external package resolves from the workspace's node_modules", async () => {
    await ensureBuilt();
    const port = await freePort();
    const project = devProject({
      ...PACKAGE,
      "apps/web/svc.ts": `export default { functions: { greet: { name: "Greet", source: "./greet", externalPackages: ["greeting-pkg"], dev: { port: ${port} } } } };\n`,
      "apps/web/greet/index.ts": 'import { greeting } from "greeting-pkg";\nexport default () => new Response(greeting());\n',
    });
    const dev = startDev(["--no-branch-env"], { cwd: join(project.dir, "apps", "web") });
    try {
      await dev.waitForOutput(/Watching for changes/);
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(`hello from the package from ${join(project.dir, "node_modules", "greeting-pkg")}`);
    } finally {
      await dev.stop();
      project.remove();
    }
  }, 90_000);
});
