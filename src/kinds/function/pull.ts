/**
 * Functions in a pulled config: listed for the reader, never declared (a function's source cannot
 * be pulled). Pure.
 */
import { type KindPull, commentSection } from "../../inspect/kind-pull.js";
import { compareCodePoints } from "../../inspect/normalize.js";

/** A function of the branch as a pull lists it. */
export interface PulledFunction {
  slug: string;
  name: string;
}

/**
 * Functions are listed in `preview.functions` (by slug) and commented on; `prune.functions` is stated
 * when the branch has any. The tuning gets no overrides: a pull declares no function for them to tune.
 */
export const functionPull = {
  tuning: () => ({}),
  preview: (records) => ({
    functions: records.functions.map((f) => ({ slug: f.slug, name: f.name })).sort((a, b) => compareCodePoints(a.slug, b.slug)),
  }),
  prune: { key: "functions", live: (records) => records.functions.length },
  comments: (preview, text) =>
    commentSection(
      "Functions on this branch (declare them under `functions` with a `source` to manage them):",
      (preview.functions ?? []).map((f) => `  ${f.slug}: { name: ${text.literal(f.name)} }`),
    ),
} satisfies KindPull;
