import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildDevFiles, buildFunctionArchive } from "../../../src/bundle/archive.js";
import { isPlatformError } from "../../../src/errors/index.js";
import { createTempTree } from "../../helpers/temp-dir.js";
import { functionConfig } from "./function-config.js";

const tree = createTempTree({
  "fn/index.ts": 'import { greet } from "./greet";\nexport default () => new Response(greet());\n',
  "fn/greet.ts": 'export const greet = (): string => "hi";\n',
  "fn/unused.ts": "export const x = 1;\n",
  "prebuilt/index.mjs": "export default () => new Response('x');\n",
  "prebuilt/lib/data.json": "{}",
  "broken/index.ts": "export default (\n",
});
afterAll(() => tree.remove());

describe("buildDevFiles: what svc dev runs", () => {
  it("bundles with esbuild like a deployment, with an inline source map naming the sources by absolute URL, and lists the files it read", async () => {
    const fn = functionConfig("hello", tree.path("fn"), { source: tree.path("fn/index.ts") });
    const dev = await buildDevFiles(fn, { workingDir: tree.root });
    expect([...dev.files.keys()]).toEqual(["index.mjs"]);
    const code = new TextDecoder().decode(dev.files.get("index.mjs"));
    const map = JSON.parse(Buffer.from(/sourceMappingURL=data:application\/json;base64,(\S+)/.exec(code)?.[1] ?? "", "base64").toString()) as { sourceRoot: string; sources: string[] };
    expect(new URL(map.sources[0] ?? "", map.sourceRoot).href).toMatch(new RegExp(`^${pathToFileURL(tree.root).href}/fn/(index|greet)\\.ts$`));
    expect(dev.inputs).toEqual([tree.path("fn/greet.ts"), tree.path("fn/index.ts")]);
    // The deployment's archive of the same function carries no map at all (sourcemap: false).
    const archive = await buildFunctionArchive(fn, { workingDir: tree.root });
    expect(archive.entries).toBe(1);
  });

  it("ships a bundler: \"none\" directory as is and watches its files", async () => {
    const fn = functionConfig("pre", tree.path("prebuilt"), { bundler: "none" });
    const dev = await buildDevFiles(fn);
    expect([...dev.files.keys()].sort()).toEqual(["index.mjs", "lib/data.json"]);
    expect(dev.inputs).toEqual([tree.path("prebuilt/index.mjs"), tree.path("prebuilt/lib/data.json")]);
  });

  it("fails like a deployment: a BundleError naming the function and file:line:column", async () => {
    const fn = functionConfig("broken", tree.path("broken"), { source: tree.path("broken/index.ts") });
    const err = await buildDevFiles(fn, { workingDir: tree.root }).catch((e: unknown) => e);
    expect(isPlatformError(err, "PLATFORM_BUNDLE_FAILED")).toBe(true);
    expect((err as Error).message).toMatch(/broken\/index\.ts:2:\d+/);
  });
});
