/**
 * The import graph of `src/` and the dependency direction ARCHITECTURE.md documents. Parsing is
 * textual (static `import`/`export … from`, literal dynamic `import()`), which is exact for this
 * code base: every import is a relative literal or a package name.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** One import of one file: the importing file, the imported file (both relative to `src/`), and how. */
export interface ImportEdge {
  from: string;
  to: string;
  dynamic: boolean;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^"';]*?\sfrom\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative import between files of `srcDir` (package imports are left out). */
export function readImportGraph(srcDir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier === undefined || !specifier.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
      edges.push({ from: relative(srcDir, file), to: relative(srcDir, target), dynamic: match[3] !== undefined });
    }
  }
  return edges;
}

/**
 * The layer of each file of a kind folder (`kinds/<kind>/<file>`), by the stage it serves: a
 * kind's fields sit with the descriptors, its policy schema and its resolution (`resolve.ts`) with `config/`, its wire schemas with
 * `api/wire/`, its read and pull with `inspect/`, its diff with `diff/` and its handler with
 * `apply/handlers/`, so each obeys that stage's direction.
 */
export const KIND_FILE_LAYERS: Readonly<Record<string, string>> = {
  "fields.ts": "model/kinds",
  "policy.ts": "config",
  "resolve.ts": "config",
  "wire.ts": "api/wire",
  "read.ts": "inspect",
  "pull.ts": "inspect",
  "diff.ts": "diff",
  "apply.ts": "apply/handlers",
  "index.ts": "kinds/light",
  "stages.ts": "kinds/modules",
};

/**
 * The registry's files: its list of light modules (`kinds/list.ts`, beside each kind's `index.ts`),
 * the whole modules (`kinds/modules.ts`, above the stages they bind, beside each kind's `stages.ts`)
 * and the modules' shape (`kinds/module.ts`, types naming every stage's).
 */
const KIND_MODULE_FILES: Readonly<Record<string, string>> = { "kinds/list.ts": "kinds/light", "kinds/modules.ts": "kinds/modules", "kinds/module.ts": "kinds/shape" };

/** The kind folder of a file (`bucket` for `kinds/bucket/diff.ts`), or `undefined`. */
export function kindFolderOf(file: string): string | undefined {
  const parts = file.split("/");
  return parts.length === 3 && parts[0] === "kinds" ? parts[1] : undefined;
}

/**
 * The layer of a file: its top folder under `src/`, except `api/wire/` (the wire schemas the
 * emulator may use), `apply/handlers/` (which build requests from the plan alone, so they may
 * not reach back into `diff/`), `model/kinds/` (the kind descriptors, which the wire schemas
 * read too), the files of a kind folder (by {@link KIND_FILE_LAYERS}; a file named otherwise is
 * in no layer, so any import of it or by it is refused) and the root files.
 */
export function layerOf(file: string): string {
  const registryLayer = KIND_MODULE_FILES[file];
  if (registryLayer !== undefined) return registryLayer;
  if (kindFolderOf(file) !== undefined) return KIND_FILE_LAYERS[file.slice(file.lastIndexOf("/") + 1)] ?? "kinds/unknown-stage";
  if (file.startsWith("api/wire/")) return "api/wire";
  if (file.startsWith("apply/handlers/")) return "apply/handlers";
  if (file.startsWith("model/kinds/")) return "model/kinds";
  const slash = file.indexOf("/");
  return slash === -1 ? file.replace(/\.ts$/, "") : file.slice(0, slash);
}

/**
 * Allowed targets per layer (besides the layer itself). The engine stack reads
 * `cli → engine → (inspect, apply) → (diff, bundle) → (api, config) → (model, errors, rules)`,
 * each layer reaching everything below it; the side products sit beside it.
 */
const ENGINE_STACK: string[][] = [["cli"], ["engine"], ["kinds/modules"], ["kinds/light"], ["inspect", "apply"], ["diff", "bundle"], ["api", "api/wire", "config"], ["kinds", "model", "errors", "rules", "version"]];

function below(layer: string): string[] {
  const rank = ENGINE_STACK.findIndex((row) => row.includes(layer));
  return ENGINE_STACK.slice(rank + 1).flat();
}

const ALLOWED: Record<string, string[]> = {
  v1: below("cli"),
  index: ["v1"],
  cli: ["v1", ...below("cli"), "instant", "runtime"],
  engine: below("engine"),
  inspect: below("inspect"),
  // A kind's module gathers its stages' functions, so it sits above them all.
  "kinds/modules": [...below("kinds/modules"), "apply/handlers", "kinds/shape"],
  // A kind's light module and the list of them: what declaring, resolving and pulling a policy need (its
  // pull writes through `inspect/`), no diff, handler or read (those load lazily, with its stages).
  "kinds/light": ["config", "inspect", "kinds", "kinds/shape", "model", "errors", "rules", "version"],
  // The modules' shape names every stage's types (it holds types only).
  "kinds/shape": ["kinds/light", ...below("kinds/light"), "apply/handlers"],
  apply: [...below("apply"), "apply/handlers"],
  "apply/handlers": ["apply", ...below("apply").filter((l) => l !== "diff")],
  diff: ["kinds", "model", "rules", "errors"],
  bundle: below("bundle"),
  api: ["api/wire", "kinds", "model", "errors", "rules", "version"],
  "api/wire": ["model/kinds", "rules", "errors"],
  config: ["kinds", "model", "errors", "rules", "version"],
  model: ["kinds", "model/kinds", "rules"],
  // The kinds' names and facts as types (`kinds/index.ts`, `registry.ts`), which every layer reads; they import nothing.
  kinds: [],
  "model/kinds": ["model", "rules"],
  // Errors carry plan records (a failed apply's result) in their details.
  errors: ["model"],
  rules: [],
  version: [],
  instant: ["api", "api/wire", "errors", "rules", "version"],
  vite: ["instant", "api", "api/wire", "errors", "version"],
  emulator: ["api/wire", "rules", "errors", "version", "runtime"],
  // The function host, shared by `svc dev` and the emulator, runs beside user code: node built-ins and the leaves only.
  runtime: ["errors", "rules"],
  // `svc-config/functions` is bundled into user functions: its own files and dependency-free rules only.
  functions: ["rules"],
};

/**
 * Edges allowed only as a literal dynamic `import()`: the CLI loads the emulator lazily, so does
 * the engine for verified plans (a replica of the branch), and the loader hands the package's own
 * surface to the policy it evaluates (`svc-config`, `/v1`).
 */
const LAZY: Record<string, string[]> = { cli: ["emulator"], config: ["v1", "index"], engine: ["emulator"], "kinds/light": ["kinds/modules"] };

/**
 * The kinds a kind folder may import (its declared dependencies, e.g. a trigger on a bucket's
 * objects); any other import between two kind folders is refused.
 */
const KIND_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  // The auth integration lives on the Data API's service database and waits for the same changes (its module hands them to its diff).
  auth: ["dataApi"],
  // A function's policy lists its custom domains (the domain kind's hostname schema).
  function: ["domain"],
  // A read replica is a compute endpoint: its settings, their pair rule and their wire form are compute's.
  readReplica: ["compute"],
};

/**
 * The layers outside the kind folders that reach into one only through its `wire.ts`: the adapter
 * interface (`PlatformApi`, which a custom `api` implements) and the wire schemas it shares with the
 * emulator are composed of the kinds' wire records.
 */
const THROUGH_KIND_WIRE: readonly string[] = ["api", "api/wire"];

/** Edges that break the documented direction, as `from → to` lines. */
export function forbiddenEdges(edges: readonly ImportEdge[]): string[] {
  const bad: string[] = [];
  for (const edge of edges) {
    const fromKind = kindFolderOf(edge.from);
    const toKind = kindFolderOf(edge.to);
    if (fromKind !== undefined && toKind !== undefined && fromKind !== toKind && !(KIND_DEPENDENCIES[fromKind] ?? []).includes(toKind)) {
      bad.push(`${edge.from} → ${edge.to} (kind ${fromKind} does not declare a dependency on ${toKind})`);
      continue;
    }
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (edge.from.startsWith("cli/views/") && to === "kinds/modules") {
      bad.push(`${edge.from} → ${edge.to} (the views read the kinds' light modules, kinds/list.ts, never their stages)`);
      continue;
    }
    if (fromKind === undefined && toKind !== undefined && THROUGH_KIND_WIRE.includes(from) && !edge.to.endsWith("/wire.ts")) {
      bad.push(`${edge.from} → ${edge.to} (${from} reaches a kind folder only through its wire.ts)`);
      continue;
    }
    if (from === to) continue;
    const allowed = ALLOWED[from] ?? [];
    if (allowed.includes(to) || (to === "model/kinds" && allowed.includes("model"))) continue;
    if (edge.dynamic && (LAZY[from] ?? []).includes(to)) continue;
    bad.push(`${edge.from} → ${edge.to} (${from} may import ${allowed.join(", ") || "nothing"})`);
  }
  return bad.sort();
}

/**
 * File-level import cycles among static imports (type-only ones included): strongly connected
 * components of more than one file, or a self-import. A lazy `import()` runs after every module
 * has loaded, so it closes no cycle.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) if (!edge.dynamic) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (next.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}
