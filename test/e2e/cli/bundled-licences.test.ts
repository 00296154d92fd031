/**
 * The built package ships the licences of the third-party code its bundles copy in: every package
 * with a module in the CLI's bundle (dist/bin/) or in the vendored zod (dist/vendor/) has a section
 * naming it and its version in the THIRD-PARTY-NOTICES.txt of that directory, with its licence text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, ensureBuilt } from "./harness.js";

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

/** The name of the package each `node_modules/` path is in, once each. */
function packagesOf(paths: readonly string[]): string[] {
  const names = paths.flatMap((path) => {
    const at = path.lastIndexOf("node_modules/");
    if (at < 0) return [];
    const parts = path.slice(at + "node_modules/".length).split("/");
    return [parts[0]?.startsWith("@") === true ? parts.slice(0, 2).join("/") : (parts[0] ?? "")];
  });
  return [...new Set(names)].sort();
}

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

describe("bundled third-party code", () => {
  it("the CLI's bundle lists every package it holds, with its version and licence", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "dist", "bin", "svc.modules.json"), "utf8")) as Record<string, string[]>;
    const packages = packagesOf(Object.values(manifest).flat());
    expect(packages).toContain("commander");
    const notices = readFileSync(join(ROOT, "dist", "bin", "THIRD-PARTY-NOTICES.txt"), "utf8");
    for (const name of packages) expect(notices).toContain(`${name} ${versionOf(name)}\nLicense: `);
    // jszip's licence file is LICENSE.markdown: its text is there, not a placeholder.
    expect(notices).toMatch(/jszip [\d.]+\nLicense: [^\n]+\n\n[^(]/);
  });

  it("the vendored zod ships zod's licence beside it", () => {
    const notices = readFileSync(join(ROOT, "dist", "vendor", "THIRD-PARTY-NOTICES.txt"), "utf8");
    expect(notices).toContain(`zod ${versionOf("zod")}\nLicense: MIT\n\nMIT License`);
    expect(readFileSync(join(ROOT, "dist", "vendor", "zod.js"), "utf8").split("\n")[0]).toContain("THIRD-PARTY-NOTICES.txt");
  });
});
