/**
 * What `svc config init` looks at in the app it scaffolds into: whether `package.json` makes the
 * app's `.js`/`.ts` files ES modules (`"type": "module"`: svc-config is ESM only, so scripts that
 * import it, and top-level `await` in them, need it), and whether a `tsconfig.json` resolves
 * package subpaths such as `svc-config/v1` (module resolution `Bundler`, `Node16` or `NodeNext`).
 * It reports what it found and what to add; it never edits either file, and writes a minimal
 * `tsconfig.json` only where none exists.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A `tsconfig.json` for the scaffold: type-checks `svc.ts` and the functions, emits nothing. */
export const MINIMAL_TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023"],
      module: "ESNext",
      moduleResolution: "Bundler",
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ["svc.ts", "svc-env.d.ts", "functions"],
  },
  null,
  2,
)}\n`;

/** The app's files as init found them. */
export interface ProjectSetup {
  /** `package.json`: absent, or its `type` field (`undefined` when it has none). */
  packageType: { found: false } | { found: true; type: string | undefined };
  /** `tsconfig.json`: absent, or its module resolution as written (`undefined` when unset). */
  tsconfig: { found: false } | { found: true; moduleResolution: string | undefined; module: string | undefined };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A string option of a `tsconfig.json`, read by name (the file may hold comments, so no JSON parse). */
function option(text: string, name: string): string | undefined {
  return new RegExp(`"${name}"\\s*:\\s*"([^"]*)"`, "i").exec(text)?.[1];
}

/** Reads the app's `package.json` and `tsconfig.json` in `cwd`. */
export function inspectProject(cwd: string): ProjectSetup {
  const pkg = readText(join(cwd, "package.json"));
  let type: string | undefined;
  if (pkg !== undefined) {
    try {
      const parsed = JSON.parse(pkg) as { type?: unknown };
      type = typeof parsed.type === "string" ? parsed.type : undefined;
    } catch {
      type = undefined;
    }
  }
  const ts = readText(join(cwd, "tsconfig.json"));
  return {
    packageType: pkg === undefined ? { found: false } : { found: true, type },
    tsconfig: ts === undefined ? { found: false } : { found: true, moduleResolution: option(ts, "moduleResolution"), module: option(ts, "module") },
  };
}

/** Whether a tsconfig's options resolve `exports` subpaths (`svc-config/v1`). */
function resolvesSubpaths(tsconfig: { moduleResolution: string | undefined; module: string | undefined }): boolean {
  const resolution = tsconfig.moduleResolution?.toLowerCase();
  if (resolution !== undefined) return ["bundler", "node16", "nodenext"].includes(resolution);
  return ["node16", "node18", "nodenext", "preserve"].includes(tsconfig.module?.toLowerCase() ?? "");
}

/** What init found, and what to add, one line each (empty when nothing is missing). */
export function setupNotes(setup: ProjectSetup, wroteTsconfig: boolean): string[] {
  const notes: string[] = [];
  if (!setup.packageType.found) {
    notes.push('No package.json here: run npm init -y, then add "type": "module" to it (svc-config is ESM only; scripts that import it need ES modules).');
  } else if (setup.packageType.type !== "module") {
    notes.push('package.json has no "type": "module": add it, so your own scripts can import svc-config (ESM only) and use top-level await. svc.ts loads either way.');
  }
  if (wroteTsconfig) {
    notes.push('No tsconfig.json here: wrote a minimal one (module resolution "Bundler", so the editor resolves svc-config/v1); pass --no-tsconfig to skip it.');
  } else if (!setup.tsconfig.found) {
    notes.push('No tsconfig.json here: for editor types, add one with "moduleResolution": "Bundler" (or "NodeNext" with "type": "module").');
  } else if (!resolvesSubpaths(setup.tsconfig)) {
    notes.push(`tsconfig.json resolves modules as ${JSON.stringify(setup.tsconfig.moduleResolution ?? setup.tsconfig.module ?? "node10")}, which cannot see svc-config/v1: set "moduleResolution": "Bundler" (or "NodeNext" with "type": "module").`);
  }
  return notes;
}
