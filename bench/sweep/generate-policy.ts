/**
 * Writes a size-sweep policy to a directory: `svc.ts` plus one esbuild source folder per
 * function (each importing a shared helper, as real projects do). Two shapes:
 * - `mix`: 40 % functions, 20 % each buckets, schedule triggers and custom domains;
 * - `functions`: functions only.
 * Env values are realistic: most are shared by every function (a database URL, a token, a
 * region among three), so keyless fingerprints derive a handful of values, not one per function.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The two sweep shapes. */
export type SweepShape = "mix" | "functions";

/** How many resources of each kind a shape has at size `n`. */
export interface SweepCounts {
  functions: number;
  buckets: number;
  triggers: number;
  domains: number;
}

/** The resource counts of `shape` at size `n` (the counts add up to `n`). */
export function sweepCounts(shape: SweepShape, n: number): SweepCounts {
  if (shape === "functions") return { functions: n, buckets: 0, triggers: 0, domains: 0 };
  const fifth = Math.floor(n / 5);
  return { functions: n - 3 * fifth, buckets: fifth, triggers: fifth, domains: fifth };
}

const slugOf = (i: number): string => `fn${String(i).padStart(5, "0")}`;
const REGIONS = ["eu", "us", "ap"];

/** Writes the policy of `shape` at size `n` under `root`; returns the `svc.ts` path. */
export function writeSweepPolicy(root: string, shape: SweepShape, n: number): string {
  const counts = sweepCounts(shape, n);
  mkdirSync(join(root, "lib"), { recursive: true });
  writeFileSync(join(root, "lib", "reply.ts"), "export function reply(slug: string): Response {\n  return new Response(`hello from ${slug}`);\n}\n");
  const lines: string[] = [
    "const shared = { APP_DATABASE_URL: \"postgres://app:s3cret-value-shared@db.internal:5432/app\", API_TOKEN: \"tok_4b1d9e0c7f2a6b83\" };",
    "export default {",
    "  functions: {",
  ];
  for (let i = 0; i < counts.functions; i++) {
    const slug = slugOf(i);
    mkdirSync(join(root, "functions", slug), { recursive: true });
    writeFileSync(join(root, "functions", slug, "index.ts"), `import { reply } from "../../lib/reply.ts";\nexport default (): Response => reply("${slug}");\n`);
    const domain = i < counts.domains ? `, customDomains: ["${slug}.sweep.example.com"]` : "";
    lines.push(`    ${slug}: { name: "Function ${i}", source: "./functions/${slug}", env: { ...shared, REGION: "${REGIONS[i % 3] ?? "eu"}" }${domain} },`);
  }
  lines.push("  },", "  buckets: {");
  for (let i = 0; i < counts.buckets; i++) lines.push(`    "bucket-${i}": { access: "${i % 2 === 0 ? "private" : "public_read"}" as const },`);
  lines.push("  },", "  triggers: {");
  for (let i = 0; i < counts.triggers; i++) {
    lines.push(`    nightly${i}: { type: "schedule" as const, function: "${slugOf(i % Math.max(counts.functions, 1))}", cron: "${i % 60} ${i % 24} * * *" },`);
  }
  lines.push("  },", "};", "");
  writeFileSync(join(root, "svc.ts"), lines.join("\n"));
  return join(root, "svc.ts");
}
