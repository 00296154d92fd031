import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { BundleError, ErrorCode, isPlatformError } from "../../../src/errors/index.js";
import { buildFunctionArchive, type BundleWarning } from "../../../src/bundle/archive.js";
import { buildFunctionBundle } from "../../../src/bundle/index.js";
import { COMMONJS_SHIM_BANNER, esbuildOptions } from "../../../src/bundle/esbuild-bundler.js";
import { createTempTree } from "../../helpers/temp-dir.js";
import { archiveNames, fixturePath, functionConfig, readArchive } from "./function-config.js";

const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Writes `index.mjs` to a fresh directory, imports it with plain Node and calls its handler. */
async function invokeWithNode(indexMjs: string, url: string): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), "svc-bundle-run-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, "index.mjs"), indexMjs);
  const script = [
    `const mod = await import(${JSON.stringify(new URL(`file://${join(dir, "index.mjs")}`).href)});`,
    `const response = await mod.default(new Request(${JSON.stringify(url)}));`,
    "process.stdout.write(await response.text());",
  ].join("\n");
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: dir });
  return stdout;
}

async function rejection(promise: Promise<unknown>): Promise<BundleError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BundleError);
  return err as BundleError;
}

describe("esbuild bundler", () => {
  it.each([false, true])("uses exactly the options of the spec (sourcemap %s)", (sourcemap) => {
    expect(esbuildOptions({ entries: ["/p/fn/index.ts"], workingDir: "/p", sourcemap })).toEqual({
      entryPoints: ["/p/fn/index.ts"],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node24",
      outfile: "index.mjs",
      minify: true,
      legalComments: "none",
      absWorkingDir: "/p",
      banner: { js: COMMONJS_SHIM_BANNER },
      logLevel: "silent",
      metafile: true,
      ...(sourcemap ? { sourcemap: "linked", sourcesContent: false } : { sourcemap: false }),
    });
    expect(COMMONJS_SHIM_BANNER).toContain("const require = __svcCreateRequire(import.meta.url);");
  });

  it("bundles a TypeScript function and its npm dependency into one index.mjs that Node can run", async () => {
    const zip = await buildFunctionBundle(functionConfig("greet", fixturePath("ts-npm")));
    const entries = await readArchive(zip);
    expect(entries.map((e) => e.name)).toEqual(["index.mjs"]);
    const code = entries[0]?.text ?? "";
    expect(code).not.toContain("tiny-greet/index.js\"");
    expect(code).toMatch(/from\s*"node:crypto"/);
    const body = JSON.parse(String(await invokeWithNode(code, "https://fn.example/?name=Ada"))) as Record<string, string>;
    expect(body).toEqual({ message: "Hello, Ada!", digest: expect.stringMatching(/^[0-9a-f]{8}$/), from: expect.stringMatching(/^cjs:/) });
  });

  it("resolves a directory source to index.ts before index.js", async () => {
    const zip = await buildFunctionBundle(functionConfig("dir", fixturePath("dir-entry")));
    const [entry] = await readArchive(zip);
    expect(await invokeWithNode(entry?.text ?? "", "https://fn.example/")).toBe("FROM INDEX.TS!");
  });

  it("accepts the entry file itself as the source", async () => {
    const file = join(fixturePath("dir-entry"), "index.js");
    const zip = await buildFunctionBundle(functionConfig("file", file));
    const [entry] = await readArchive(zip);
    expect(await invokeWithNode(entry?.text ?? "", "https://fn.example/")).toContain("from index.js");
  });

  it("ships a linked source map without embedded sources only when sourcemap is true", async () => {
    const withMap = await buildFunctionBundle(functionConfig("greet", fixturePath("ts-npm"), { sourcemap: true }));
    const entries = await readArchive(withMap);
    expect(entries.map((e) => e.name)).toEqual(["index.mjs", "index.mjs.map"]);
    expect(entries[0]?.text.trimEnd().endsWith("//# sourceMappingURL=index.mjs.map")).toBe(true);
    const map = JSON.parse(entries[1]?.text ?? "{}") as { sources: string[]; sourcesContent?: unknown };
    expect(map.sources).toEqual(["node_modules/tiny-greet/index.js", "index.ts"]);
    expect(map.sourcesContent).toBeUndefined();

    const without = await buildFunctionBundle(functionConfig("greet", fixturePath("ts-npm")));
    expect(await archiveNames(without)).toEqual(["index.mjs"]);
  });

  it("names the function, the file and the line of a syntax error", async () => {
    const err = await rejection(buildFunctionBundle(functionConfig("broken", fixturePath("syntax-error"))));
    expect(isPlatformError(err, ErrorCode.BUNDLE_FAILED)).toBe(true);
    expect(err.failures).toHaveLength(1);
    expect(err.failures[0]?.slug).toBe("broken");
    expect(err.message).toContain("function broken:");
    expect(err.message).toMatch(/index\.ts:4:\d+: Unexpected ";"/);
  });

  it("explains a directory without an entry file", async () => {
    const tree = createTempTree({ "lib/util.ts": "export const x = 1;\n" });
    cleanups.push(async () => tree.remove());
    const err = await rejection(buildFunctionBundle(functionConfig("empty", tree.root)));
    expect(err.message).toContain(`function empty: no entry file in ${tree.root}: add index.ts, index.js or index.mjs`);
  });

  it("explains a source that does not exist", async () => {
    const missing = join(tmpdir(), "svc-config-no-such-function-source");
    const err = await rejection(buildFunctionBundle(functionConfig("ghost", missing)));
    expect(err.message).toContain(`function ghost: source ${missing} does not exist`);
  });

  it("treats JSX in a .ts file as a syntax error instead of compiling it", async () => {
    const tree = createTempTree({ "index.ts": "export default () => new Response(String(<div />));\n" });
    cleanups.push(async () => tree.remove());
    const err = await rejection(buildFunctionBundle(functionConfig("jsx", tree.root)));
    expect(err.message).toMatch(/index\.ts:1:\d+: /);
  });

  it("compiles JSX in a .tsx entry with the factory its tsconfig.json configures", async () => {
    const tree = createTempTree({
      "tsconfig.json": JSON.stringify({ compilerOptions: { jsx: "react", jsxFactory: "h" } }),
      "index.tsx": [
        "const h = (tag: string, _props: unknown, ...children: string[]) => `<${tag}>${children.join('')}</${tag}>`;",
        "export default async () => new Response(<p>hi</p>);",
      ].join("\n"),
    });
    cleanups.push(async () => tree.remove());
    const zip = await buildFunctionBundle(functionConfig("jsx", tree.path("index.tsx")));
    const [entry] = await readArchive(zip);
    expect(await invokeWithNode(entry?.text ?? "", "https://fn.example/")).toBe("<p>hi</p>");
  });

  it("passes esbuild warnings to onWarning without failing", async () => {
    const tree = createTempTree({ "index.ts": "export default () => Response.json({ a: 1, a: 2 });\n" });
    cleanups.push(async () => tree.remove());
    const warnings: BundleWarning[] = [];
    const archive = await buildFunctionArchive(functionConfig("warn", tree.root), { onWarning: (w) => warnings.push(w) });
    expect(archive.entries).toBe(1);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toEqual({ slug: "warn", message: expect.stringMatching(/^index\.ts:1:\d+: Duplicate key "a"/) });
  });
});
