/**
 * Writes the load bench's policy: a `svc.ts` with 40 functions that imports a local TypeScript
 * helper module (as real policies split across files do), plus per-branch tuning.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Number of functions in the generated policy (issue 10). */
export const LOAD_FUNCTION_COUNT = 40;

/** Writes `svc.ts`, `policy/functions.ts` and one source directory per function under `root`; returns the policy path. */
export function writeLoadPolicy(root: string): string {
  mkdirSync(join(root, "policy"), { recursive: true });
  const entries: string[] = [];
  for (let i = 1; i <= LOAD_FUNCTION_COUNT; i++) {
    const slug = `fn${String(i).padStart(2, "0")}`;
    mkdirSync(join(root, "functions", slug), { recursive: true });
    writeFileSync(join(root, "functions", slug, "index.ts"), `export default (): Response => new Response("${slug}");\n`);
    entries.push(`  ${slug}: fn("${slug}", ${i}),`);
  }
  writeFileSync(
    join(root, "policy", "functions.ts"),
    [
      "interface FunctionShape { name: string; source: string; env: Record<string, string>; customDomains?: string[] }",
      "/** One function of the generated policy. */",
      "export function fn(slug: string, index: number): FunctionShape {",
      "  const shape: FunctionShape = { name: `Function ${index}`, source: `./functions/${slug}`, env: { INDEX: String(index), MODE: index % 2 === 0 ? \"even\" : \"odd\" } };",
      "  if (index % 5 === 0) shape.customDomains = [`${slug}.load.example.com`];",
      "  return shape;",
      "}",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(root, "svc.ts"),
    [
      'import { fn } from "./policy/functions.ts";',
      "",
      "export default {",
      "  auth: true,",
      '  buckets: { uploads: { access: "private" as const } },',
      "  functions: {",
      ...entries,
      "  },",
      '  triggers: { nightly: { type: "schedule" as const, function: "fn01", cron: "0 3 * * *" } },',
      "  branch: (t: { isDefault: boolean }) => (t.isDefault ? { protected: true } : { ttl: \"7d\" }),",
      "};",
      "",
    ].join("\n"),
  );
  return join(root, "svc.ts");
}
