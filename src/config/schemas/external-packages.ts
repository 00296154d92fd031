/**
 * Schema of `functions.<slug>.externalPackages`: packages esbuild leaves out of the bundle and
 * the bundler ships unbundled under `node_modules/`, staged for the platform's runtime.
 */
import * as z from "zod";
import { npmPackageNameIssue } from "../../rules/npm-package-names.js";
import { escapeUnsafeText } from "../../rules/visible-text.js";
import { describeType, describeValue } from "../issues.js";
import { strictObject } from "./common.js";

/** A package name, as npm spells it. */
const packageNameSchema = z.string().superRefine((name, ctx) => {
  const issue = npmPackageNameIssue(name);
  if (issue !== null) ctx.addIssue({ code: "custom", message: `${escapeUnsafeText(describeValue(name))} is not a package name: it ${issue}` });
});

/** One entry: a name, or `{ name, includeFiles? }`; normalised to the object form. */
const externalPackageSchema = z.union(
  [
    packageNameSchema.transform((name) => ({ name, includeFiles: true })),
    strictObject({ name: packageNameSchema, includeFiles: z.boolean().optional() }, "{ name, includeFiles? }").transform((entry) => ({
      name: entry.name,
      includeFiles: entry.includeFiles ?? true,
    })),
  ],
  { error: (issue) => `must be a package name or { name, includeFiles? } (got ${describeType(issue.input)})` },
);

/** The list; a package listed twice is an error naming both indexes. */
export const externalPackagesSchema = z
  .array(externalPackageSchema, { error: (issue) => `must be a list of package names (got ${describeType(issue.input)})` })
  .superRefine((entries, ctx) => {
    const firstIndex = new Map<string, number>();
    for (const [index, entry] of entries.entries()) {
      const earlier = firstIndex.get(entry.name);
      if (earlier === undefined) firstIndex.set(entry.name, index);
      else ctx.addIssue({ code: "custom", path: [index], message: `package ${entry.name} is listed twice: externalPackages[${earlier}] and externalPackages[${index}]` });
    }
  });

/** The message when a bundler other than esbuild declares `externalPackages`. */
export const EXTERNAL_PACKAGES_NEED_ESBUILD =
  'only the esbuild bundler leaves packages external; remove `externalPackages` or use bundler "esbuild" (with "none" or a custom bundler, ship node_modules yourself)';
